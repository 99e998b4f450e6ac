"""Roll In One: the course as hex boards (each terrain a fill AND a drawn mark), the green's flag, every
ball with its player's initial, the path of the shot in progress, the club and the number to beat,
penalty tokens and caddie cards. Aiming: choose a club, then tap an arrow around the ball. Curves: tap
an arrow. Designing a hole: a small course editor (tap a + slot, pick a board and its turn, place it;
Green mode: tap a board to zoom in, tap a space for the green; Tee off). Everything else (cards,
handicap, bumps, ready-made courses) stays in the move list."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pygame

from companion.games.roll_in_one.course import Placement, cells_of, load_library
from companion.games.roll_in_one.data import load_boards, load_cards, load_clubs
from companion.games.roll_in_one.hexgrid import DIRECTION_NAMES, SLOT_A, SLOT_B, rotate, slot_centre
from companion.games.roll_in_one.moves import (
    Adjust,
    Bump,
    ChooseGolfer,
    Curve,
    Keep,
    Land,
    Pass,
    PlaceBoard,
    PlaceGreen,
    Play,
    Shot,
    Stop,
    TeeOff,
    Traverse,
    UseCourse,
)
from companion.protocol import GameState, Move
from ui import theme
from ui.views.base import Finger, GameView, TableActions
from ui.widgets import Ui, Widget

SQ3 = math.sqrt(3)
Pos = tuple[int, int]

#: terrain -> (fill, mark colour, word). The mark is drawn with lines so it reads at any hex size.
TERRAIN = {
    "tee": ((205, 200, 180), (60, 60, 60), "tee"),
    "fairway": ((120, 190, 95), (200, 235, 170), "fairway"),
    "rough": ((55, 110, 50), (140, 180, 100), "rough"),
    "sand": ((225, 200, 130), (150, 120, 60), "sand"),
    "trees": ((30, 75, 40), (120, 200, 120), "trees"),
    "water": ((55, 110, 200), (190, 220, 255), "water"),
}
GREEN_FILL = (150, 235, 120)
BALL_MIN = 15  # px: the drawn ball's least radius with its ring (``_ball``)


def ring_radius(t: int, s: float) -> float:
    """Ball to arrow centre for ``t`` px arrow targets around a ball on a hex of size ``s``: neighbours
    60 degrees apart never overlap (the nearer of their x and y gaps is R sin 60 >= t), and no target
    reaches the ball's own space (a square's corner is 0.71 t from its centre)."""
    return max(1.16 * t + 4, max(s, BALL_MIN) + 0.71 * t + 4)


def ring_reach(t: int, s: float) -> tuple[float, float]:
    """How far the ring of arrows reaches from the ball, across and up/down."""
    r = ring_radius(t, s)
    return r + t / 2, r * SQ3 / 2 + t / 2


def arrow_points(centre: tuple[int, int], direction: int, t: int) -> list[tuple[float, float]]:
    """An arrow (a shaft and a wide head) in a ``t`` px target, pointing ``direction``; the tail half
    keeps room for the compass name."""
    ux, uy = unit(direction)
    px, py = -uy, ux
    shape = [(-0.04, -0.08), (0.16, -0.08), (0.16, -0.22), (0.46, 0.0), (0.16, 0.22), (0.16, 0.08),
             (-0.04, 0.08)]
    cx, cy = centre
    return [(cx + (a * ux + b * px) * t, cy + (a * uy + b * py) * t) for a, b in shape]


def hex_xy(q: int, r: int, s: float) -> tuple[float, float]:
    """Centre of the pointy-top hex (q, r) at hex size ``s`` (centre to corner), origin at (0, 0)."""
    return s * SQ3 * (q + r / 2), s * 1.5 * r


def hex_corners(cx: float, cy: float, s: float) -> list[tuple[float, float]]:
    return [
        (cx + s * math.cos(math.radians(60 * k - 30)), cy + s * math.sin(math.radians(60 * k - 30)))
        for k in range(6)
    ]


def unit(direction: int) -> tuple[float, float]:
    a = math.radians(60 * direction)
    return math.cos(a), math.sin(a)


class Frame:
    """Hex positions fitted into a rectangle."""

    def __init__(self, cells: Sequence[Pos], rect: pygame.Rect, max_size: float = 40.0) -> None:
        pts = [hex_xy(q, r, 1.0) for q, r in cells] or [(0.0, 0.0)]
        x0 = min(p[0] for p in pts) - SQ3 / 2
        x1 = max(p[0] for p in pts) + SQ3 / 2
        y0 = min(p[1] for p in pts) - 1
        y1 = max(p[1] for p in pts) + 1
        self.s = max(3.0, min(max_size, rect.width / (x1 - x0), rect.height / (y1 - y0)))
        self.ox = rect.centerx - (x0 + x1) / 2 * self.s
        self.oy = rect.centery - (y0 + y1) / 2 * self.s

    def xy(self, pos: Sequence[int]) -> tuple[int, int]:
        x, y = hex_xy(pos[0], pos[1], self.s)
        return round(self.ox + x), round(self.oy + y)

    @classmethod
    def with_ring(
        cls, cells: Sequence[Pos], rect: pygame.Rect, ball: Pos, t: int, max_size: float = 60.0
    ) -> Frame:
        """The largest course that fits ``rect`` with the ring of ``t`` px arrows around ``ball`` inside
        it too (the course and the ring centred together)."""
        frame = cls(cells, rect, max_size)
        pts = [hex_xy(q, r, 1.0) for q, r in cells] or [(0.0, 0.0)]
        x0, x1 = min(p[0] for p in pts) - SQ3 / 2, max(p[0] for p in pts) + SQ3 / 2
        y0, y1 = min(p[1] for p in pts) - 1, max(p[1] for p in pts) + 1
        bx, by = hex_xy(ball[0], ball[1], 1.0)

        def extent(s: float) -> tuple[float, float, float, float]:
            rx, ry = ring_reach(t, s)
            return min(x0 * s, bx * s - rx), max(x1 * s, bx * s + rx), min(y0 * s, by * s - ry), max(
                y1 * s, by * s + ry
            )

        def fits(s: float) -> bool:
            left, right, top, bottom = extent(s)
            return right - left <= rect.width and bottom - top <= rect.height

        lo, hi = 3.0, frame.s
        if fits(hi):
            lo = hi
        else:
            for _ in range(24):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if fits(mid) else (lo, mid)
        left, right, top, bottom = extent(lo)
        frame.s = lo
        frame.ox = rect.centerx - (left + right) / 2
        frame.oy = rect.centery - (top + bottom) / 2
        return frame


def board_cells(board: str, slot: Pos, turn: int) -> list[tuple[Pos, str]]:
    cq, cr = slot_centre(slot)
    out = []
    for local, terrain in load_boards()[board].terrain:
        q, r = rotate(local, turn)
        out.append(((cq + q, cr + r), terrain))
    return out


def face_word(label: str) -> str:
    """A club die face in short words: ``dots2`` is "2 dots", ``dotted-curve`` "dotted curve"."""
    if label.startswith("dots") and label[4:].isdigit():
        n = int(label[4:])
        return f"{n} dot" if n == 1 else f"{n} dots"
    return label.replace("-", " ")


def slot_gap(s: float) -> float:
    """The side of the largest square targets centred on board slots that never overlap at hex size
    ``s``: the least, over neighbouring slots, of the larger of their x and y gaps."""
    a, b = SLOT_A, SLOT_B
    steps = (a, b, (a[0] - b[0], a[1] - b[1]))
    return s * min(max(abs(x), abs(y)) for x, y in (hex_xy(q, r, 1.0) for q, r in steps))


SPACE_GAP = 1.5  # the same for neighbouring spaces, in hex sizes (rows are 1.5 apart, a row's spaces 1.73)


def target_rect(centre: tuple[int, int], side: int) -> pygame.Rect:
    r = pygame.Rect(0, 0, side, side)
    r.center = centre
    return r


def ball_half(s: float) -> int:
    """Half the side of a ball's square (its place) at hex size ``s``: its space, or the ball when larger
    (a ball is at least 11 px across)."""
    return round(max(s, 11 / 0.7))


def ball_overhang(s: float) -> int:
    """How far a ball's outline (the place inflated by 3 px, or the ring round the ball in play) reaches
    past its space's top corner at hex size ``s``: the room kept over the course's top row."""
    ring = max(11, round(s * 0.7)) + 6
    return max(0, math.ceil(max(ball_half(s) + 3, ring) - s))


class RollInOneView(GameView):
    def __init__(self, info) -> None:
        super().__init__(info)
        self.club: str | None = None
        self.listing = False  # the plain move list instead of the view's own buttons
        self.slot: Pos | None = None
        self.board_pick = 0
        self.turn = 0
        self.green_mode = False
        self.zoom: int | None = None  # a board index, zoomed in to place the green
        self.frame: Frame | None = None  # the course as last drawn (the coach's heat map goes on it)
        self.area: pygame.Rect | None = None  # where the course was drawn last (tests look there)
        self.ball_at: tuple[int, int] | None = None  # the current player's ball on screen, if drawn

    def reset(self) -> None:
        super().reset()
        self.listing = False
        self.zoom = None
        self.slot = None

    # --- words --------------------------------------------------------------------------------
    def card_name(self, deck: str, card: str) -> str:
        known = load_cards().get(card)
        return known.name if known is not None else card

    def describe(self, move: Move) -> str:
        clubs = load_clubs()
        cards = load_cards()
        d = DIRECTION_NAMES
        match move:
            case Shot(club, direction):
                return f"{clubs[club].name} {d[direction]}" if club in clubs else str(move)
            case Curve(direction, fore):
                return f"Curve {d[direction]}" + (" (Fore)" if fore else "")
            case Play(card, target, direction):
                name = cards[card].name if card in cards else card
                words = [f"Play {name}"]
                if target is not None:
                    words.append(f"on ball {target + 1}")
                if direction is not None:
                    words.append(d[direction])
                return " ".join(words)
            case Land():
                return "Land here"
            case Pass():
                return "No card"
            case Keep():
                return "Keep the roll"
            case Adjust(n):
                return f"Change the roll to {n}"
            case Traverse():
                return "Fly over (1 point)"
            case Stop():
                return "Stop at the edge"
            case Bump(target, direction):
                return f"Bump ball {target + 1} {d[direction]}"
            case ChooseGolfer(card):
                return f"Golfer: {cards[card].name}" if card in cards else str(move)
            case UseCourse(course):  # a ready-made course by its name ("The Creek")
                known = load_library().get(course)
                return f"Course: {known.name if known is not None else course}"
            case TeeOff():
                return "Tee off"
            case PlaceGreen(pos):
                return f"Green at {pos[0]},{pos[1]}"
        return str(move)

    def score_note(self, view: dict[str, Any], player: int) -> str:
        pen = view.get("penalties", [])
        hands = view.get("hand_sizes", [])
        if player >= len(pen):
            return ""
        cards = hands[player] if player < len(hands) else 0
        return f"{pen[player]} pen, {cards} card{'s' if cards != 1 else ''}"

    # --- board --------------------------------------------------------------------------------
    def tap_move(self, finger: Finger, move: Move, state: GameState) -> None:
        """On the drawn course where the view offers it (clubs, arrows, the course editor), else the list."""
        if isinstance(move, Shot):
            finger.tap(f"rio:club:{move.club}")
            finger.tap(f"rio:dir:{DIRECTION_NAMES[move.direction]}")
        elif isinstance(move, Curve):
            finger.tap(f"rio:dir:{DIRECTION_NAMES[move.direction]}")
        elif isinstance(move, PlaceBoard):
            p = move.placement
            finger.tap("rio:mode:boards")
            for _ in range(60):
                if self.slot == p.slot:
                    break
                finger.tap("rio:slot:next")
            for _ in range(12):
                chosen = self.chosen_placement(state)
                if chosen is not None and chosen.board == p.board:
                    break
                finger.tap("rio:board:next")
            for _ in range(6):
                if self.turn == p.turn:
                    break
                finger.tap("rio:turn")
            finger.tap("rio:place")
        elif isinstance(move, PlaceGreen):
            finger.tap("rio:mode:green")
            board = cells_of(state.design)[move.pos][1]  # type: ignore[attr-defined]
            for _ in range(12):
                if self.zoom == board:
                    break
                finger.tap("rio:zoom:next")
            finger.tap(f"rio:space:{move.pos[0]},{move.pos[1]}")
        elif isinstance(move, TeeOff):
            finger.tap("rio:teeoff")
        else:
            if finger.find("rio:list") is not None:
                finger.tap("rio:list")
            finger.choose(str(move))

    def draw_board(
        self, ui: Ui, rect: pygame.Rect, state: GameState, view: dict[str, Any], actions: TableActions
    ) -> None:
        m = ui.metrics
        ui.panel(rect, theme.PANEL)
        inner = rect.inflate(-2 * m.pad, -2 * m.pad)
        line = ui.font(m.small).get_linesize()
        phase = view.get("phase")
        y = inner.y
        # a board zoomed into for its green takes the whole panel: its spaces are 9 mm targets
        zoomed = phase == "design" and self.zoom is not None
        if not zoomed:
            ui.text(ui.words_that_fit(self._headers(view), m.small, inner.width), (inner.x, y), m.small,
                    theme.ACCENT)
            y += line
        shot = view.get("shot")
        if shot and shot.get("club"):
            ui.text(self._shot_line(shot), (inner.x, y), m.small, theme.TEXT, width=inner.width)
            y += line
        elif phase == "design" and not self.listing and not zoomed:
            ui.text(self._design_hint(), (inner.x, y), m.small, theme.MUTED, width=inner.width)
            y += line
        fits = self._token_w(ui, line) * len(view.get("players", [])) <= inner.width
        footer = line + 6 if view.get("players") and phase != "design" and fits else 0
        legend = line * self._legend_rows(ui, inner.width) if m.portrait and not zoomed else 0
        area = pygame.Rect(inner.x, y + 2, inner.width, inner.bottom - y - 2 - footer - legend)
        self.area, self.ball_at = area, None
        if phase == "design":
            self._draw_design(ui, area, state, view, actions)
        elif "course" in view:
            self._draw_course(ui, area, state, view, actions)
        else:
            ui.paragraph(self._setup_text(view), area, m.small, theme.MUTED)
        if legend:
            self._legend(ui, pygame.Rect(inner.x, area.bottom + 2, inner.width, legend))
        if footer:
            self._tokens(ui, pygame.Rect(inner.x, inner.bottom - line, inner.width, line), view, actions)

    def _header(self, view: dict[str, Any]) -> str:
        return self._headers(view)[0]

    def _headers(self, view: dict[str, Any]) -> list[str]:
        """The board's header line, fullest first, then shorter wordings for a narrower board."""
        parts = [f"Hole {view.get('hole', 1)} of {view.get('holes', 1)}"]
        course = view.get("course")
        if course and view.get("phase") != "design":
            parts.append(f"par {course['par']}")
            parts.append(f"round {view.get('round', 1)}")
        elif view.get("phase") == "design":
            parts.append("design")
            gone = sum(view.get("penalties_discarded") or [])
            if gone:  # the hole just scored: its penalty tokens went back to the box
                tokens = f"{gone} penalty token{'s' if gone != 1 else ''}"
                hole = view.get("hole", 2) - 1
                return [", ".join([*parts, f"{tokens} of hole {hole} discarded"]),
                        ", ".join([*parts, f"hole {hole}'s {tokens} discarded"]),
                        ", ".join([*parts, f"{gone} tokens discarded"]), ", ".join(parts)]
        return [", ".join(parts)]

    def _shot_line(self, shot: dict[str, Any]) -> str:
        clubs = load_clubs()
        club = clubs[shot["club"]].name if shot["club"] in clubs else shot["club"]
        words = [f"{club} {shot.get('direction') or ''}".strip()]
        if shot.get("beat"):
            words.append(f"beat {shot['beat']}")
        if shot.get("rolls"):
            words.append("rolled " + " / ".join(face_word(f) for f in shot["rolls"]))
        return ", ".join(words)

    def _setup_text(self, view: dict[str, Any]) -> str:
        golfers = [g["name"] for g in view.get("golfers", []) if g]
        text = "Setting up: golfer cards, then the roll-off for the first player."
        if golfers:
            text += " Golfers: " + ", ".join(golfers) + "."
        return text

    def _design_hint(self) -> str:
        if self.green_mode:
            return "Green: tap a board, then a space" if self.zoom is None else "Tap a space for the green"
        return "Tap a + slot, pick a board, Place" if self.slot is None else "Pick a board and turn, Place"

    # --- drawing pieces -----------------------------------------------------------------------
    def _hex(self, ui: Ui, centre: tuple[int, int], s: float, terrain: str, green: bool = False) -> None:
        fill, mark, _ = TERRAIN.get(terrain, ((90, 90, 90), (200, 200, 200), terrain))
        cx, cy = centre
        pts = hex_corners(cx, cy, s)
        pygame.draw.polygon(ui.surface, GREEN_FILL if green else fill, pts)
        pygame.draw.polygon(ui.surface, (25, 35, 25), pts, 1)
        if green:
            self._flag(ui, centre, s)
        else:
            self._mark(ui, centre, s, terrain, mark)

    def _mark(self, ui: Ui, centre: tuple[int, int], s: float, terrain: str, col) -> None:
        """A terrain's drawn sign, so that colour is not the only cue."""
        cx, cy = centre
        k = s * 0.45
        surf = ui.surface
        w = max(1, round(s / 8))
        if terrain == "tee":  # a T
            pygame.draw.line(surf, col, (cx - k, cy - k), (cx + k, cy - k), w + 1)
            pygame.draw.line(surf, col, (cx, cy - k), (cx, cy + k), w + 1)
        elif terrain == "fairway":  # mown stripes
            pygame.draw.line(surf, col, (cx - k, cy - k / 2), (cx + k, cy - k / 2), w)
            pygame.draw.line(surf, col, (cx - k, cy + k / 2), (cx + k, cy + k / 2), w)
        elif terrain == "rough":  # a tuft: three blades
            for dx in (-k / 2, 0, k / 2):
                pygame.draw.line(surf, col, (cx + dx, cy + k / 2), (cx + dx * 1.6, cy - k / 2), w)
        elif terrain == "sand":  # dots
            r = max(1, round(s / 10))
            for dx, dy in ((-k / 2, k / 3), (k / 2, k / 3), (0, -k / 3)):
                pygame.draw.circle(surf, col, (round(cx + dx), round(cy + dy)), r)
        elif terrain == "trees":  # a tree
            pygame.draw.polygon(
                surf, col, [(cx, cy - k), (cx + k * 0.8, cy + k * 0.6), (cx - k * 0.8, cy + k * 0.6)]
            )
        elif terrain == "water":  # a wave
            pts = [(cx - k + i * k / 3, cy + (k / 3 if i % 2 else -k / 3)) for i in range(7)]
            pygame.draw.lines(surf, col, False, pts, w)

    def _flag(self, ui: Ui, centre: tuple[int, int], s: float) -> None:
        cx, cy = centre
        k = max(8.0, s * 0.6)  # readable even on a big course
        pygame.draw.circle(ui.surface, (20, 20, 20), (cx, round(cy + k * 0.6)), max(2, round(s / 6)))
        pygame.draw.line(ui.surface, (30, 30, 30), (cx, cy + k * 0.6), (cx, cy - k), max(1, round(s / 10)))
        pygame.draw.polygon(
            ui.surface, theme.BAD, [(cx, cy - k), (cx + k, cy - k * 0.65), (cx, cy - k * 0.3)]
        )

    def _ball(
        self,
        ui: Ui,
        centre: tuple[int, int],
        s: float,
        player: int,
        name: str,
        actions: TableActions,
        current: bool,
    ) -> None:
        col = actions.colour(player)
        r = max(11, round(s * 0.7))
        if current:
            pygame.draw.circle(ui.surface, theme.SELECTED, centre, r + 4, 3)
        pygame.draw.circle(ui.surface, (250, 250, 250), centre, r)
        pygame.draw.circle(ui.surface, col.rgb, centre, r - 3)
        ui.text(
            (name[:1] or "?").upper(),
            centre,
            ui.metrics.small - 4 if not ui.metrics.portrait else ui.metrics.small,
            (255, 255, 255),
            "center",
        )

    def _legend_cols(self, ui: Ui, width: int) -> int:
        """As many legend entries a row as fit whole (a hex and the terrain's name)."""
        font = ui.font(ui.metrics.small)
        hexw = font.get_linesize()
        widest = max(font.size(t)[0] for t in (*TERRAIN, "green")) + hexw + 12
        return max(1, min(len(TERRAIN) + 1, width // widest))

    def _legend_rows(self, ui: Ui, width: int) -> int:
        return -(-(len(TERRAIN) + 1) // self._legend_cols(ui, width))

    def _legend(self, ui: Ui, rect: pygame.Rect) -> None:
        size = ui.metrics.small
        items = [*TERRAIN, "green"]
        cols = self._legend_cols(ui, rect.width)
        line = ui.font(size).get_linesize()
        w = rect.width // cols
        s = line * 0.45
        for i, t in enumerate(items):
            r, k = divmod(i, cols)
            cy = rect.y + r * line + line // 2
            c = (rect.x + k * w + round(s) + 2, cy)
            self._hex(ui, c, s, t if t != "green" else "rough", green=t == "green")
            ui.text(t, (c[0] + round(s) + 4, cy), size, theme.MUTED, "midleft")

    def _token_w(self, ui: Ui, h: int) -> int:
        """The width one player's tokens take in the footer row (the score panel says the same in words
        when the row does not fit)."""
        digit = ui.font(ui.metrics.small).size("88")[0]
        return 18 + h + digit + 6 + max(10, h * 2 // 3) + 4 + digit + 8

    def _tokens(self, ui: Ui, rect: pygame.Rect, view: dict[str, Any], actions: TableActions) -> None:
        """Each player's penalty tokens (P discs) and caddie cards (small cards) in a row."""
        players = view.get("players", [])
        pen = view.get("penalties", [0] * len(players))
        hands = view.get("hand_sizes", [0] * len(players))
        w = rect.width // max(1, len(players))
        h = rect.height
        for i in range(len(players)):
            x = rect.x + i * w
            col = actions.colour(i)
            ui.shape(col.shape, (x + 8, rect.centery), 7, col.rgb)
            x += 18
            n = pen[i] if i < len(pen) else 0
            pygame.draw.circle(ui.surface, theme.BAD, (x + h // 2 - 2, rect.centery), h // 2 - 2)
            ui.text("P", (x + h // 2 - 2, rect.centery), ui.metrics.small - 4, (255, 255, 255), "center")
            x += h
            ui.text(f"{n}", (x, rect.centery), ui.metrics.small - 4, theme.TEXT, "midleft")
            x += ui.font(ui.metrics.small).size(f"{n}")[0] + 6
            c = hands[i] if i < len(hands) else 0
            card = pygame.Rect(x, rect.y + 2, max(10, h * 2 // 3), h - 4)
            pygame.draw.rect(ui.surface, (235, 235, 225), card, border_radius=3)
            pygame.draw.rect(ui.surface, (60, 90, 60), card.inflate(-4, -4), 1, border_radius=2)
            ui.text(f"{c}", (card.right + 4, rect.centery), ui.metrics.small - 4, theme.TEXT, "midleft")

    # --- the course in play ---------------------------------------------------------------------
    def _draw_course(
        self, ui: Ui, area: pygame.Rect, state: GameState, view: dict[str, Any], actions: TableActions
    ) -> None:
        course = view["course"]
        spaces = course["spaces"]
        cells = [(c["q"], c["r"]) for c in spaces]
        shot = view.get("shot") or {}
        balls = view.get("balls", [])
        current = shot.get("player", view.get("current_player"))
        ball = balls[current] if current is not None and current < len(balls) else None
        aiming = (
            not self.listing
            and ball is not None
            and shot.get("stage") in ("aim", "curve")
            and not self._interrupted(state)
        )
        t = ui.metrics.target

        def fit(room: pygame.Rect) -> Frame:
            return Frame.with_ring(cells, room, ball, t) if ball is not None else Frame(cells, room, 60.0)

        frame = fit(area)
        for _ in range(3):  # a ball on the top row stands out of its space: keep it under the header
            over = ball_overhang(frame.s)
            top = min(frame.xy(c)[1] for c in cells) - frame.s  # the top row's upper corners
            if top - over >= area.top:
                break
            frame = fit(pygame.Rect(area.x, area.y + over, area.width, area.height - over))
        self.frame = frame
        s = frame.s
        for c in spaces:
            self._hex(ui, frame.xy((c["q"], c["r"])), s * 0.96, c["terrain"], c["green"])
        reached = view.get("greens_reached") or []
        if current is not None and current < len(reached):  # campaign: a tick on the greens already had
            for g in reached[current]:
                x, y = frame.xy(g)
                k = max(4, round(s * 0.5))
                pygame.draw.lines(
                    ui.surface,
                    (20, 20, 20),
                    False,
                    [(x - k, y), (x - k // 3, y + k), (x + k, y - k)],
                    max(2, round(s / 6)),
                )
        path = shot.get("path") or []
        if len(path) > 1:
            pts = [frame.xy(p) for p in path]
            pygame.draw.lines(ui.surface, (255, 255, 255), False, pts, max(3, round(s / 4)))
            for p in pts[1:]:
                pygame.draw.circle(ui.surface, theme.SELECTED, p, max(3, round(s / 4)))
        players = view.get("players", [])
        seen: dict[tuple, int] = {}
        placed = []
        for i, b in enumerate(balls):
            if b is None:
                continue
            k = seen.get(tuple(b), 0)
            seen[tuple(b)] = k + 1
            x, y = frame.xy(b)
            off = round(k * max(14, s * 0.8))  # balls on one space fan out so every initial shows:
            up = y - off - ball_overhang(s) - s >= area.top  # up and right, down near the header
            placed.append((i == current, i, (x + off, y - off if up else y + off)))
        for is_current, i, centre in sorted(placed):  # the ball in play is drawn last, on top
            self._ball(ui, centre, s, i, players[i], actions, is_current)
            half = ball_half(s)
            ui.place(f"ball:{i}", pygame.Rect(centre[0] - half, centre[1] - half, 2 * half, 2 * half),
                     tuple(balls[i]))
        if ball is not None:
            self.ball_at = frame.xy(ball)
        if aiming:
            self._arrows(ui, area, frame.xy(ball), s, state, shot["stage"], actions)

    @staticmethod
    def _place_spaces(ui: Ui, frame: Frame, spaces: Sequence[dict[str, Any]]) -> None:
        """Name each space (its terrain and green) and each board of a course being designed (its spaces'
        bounds) as places of the board."""
        h = round(frame.s)
        boards: dict[int, pygame.Rect] = {}
        for c in spaces:
            x, y = frame.xy((c["q"], c["r"]))
            r = pygame.Rect(x - h, y - h, 2 * h, 2 * h)
            ui.place(f"space:{c['q']},{c['r']}", r, (c["terrain"], c["green"]))
            boards[c["board"]] = boards[c["board"]].union(r) if c["board"] in boards else r
        for b, r in boards.items():
            ui.place(f"board:{b}", r, b)

    rolls_settle_moves = True  # the dice thrown after a shot move the ball

    def touched(self, move: Move, player: int, before: dict[str, Any], changed: list[str]) -> list[str]:
        """A board placed (the next of the design's boards); in play, the ball of the shot being played
        (the shot, its curve, a card on it, its landing) too."""
        if isinstance(move, PlaceBoard):
            return [f"board:{len(before.get('design', {}).get('boards', []))}"]
        shot = before.get("shot") or {}
        if "course" in before and shot.get("player") is not None and before.get("phase") == "play":
            return [*changed, f"ball:{shot['player']}"]
        return changed

    @property
    def hex_size(self) -> float:
        """The course's hex size as last drawn (centre to corner, px; 0 before it is drawn)."""
        return self.frame.s if self.frame is not None else 0.0

    def _interrupted(self, state: GameState) -> bool:
        t = getattr(state, "turn", None)
        return bool(t is not None and t.interrupts)

    def _arrows(
        self,
        ui: Ui,
        area: pygame.Rect,
        ball: tuple[int, int],
        s: float,
        state: GameState,
        stage: str,
        actions: TableActions,
    ) -> None:
        """Six 9 mm direction targets in a ring around the ball, off its space: each a disc with an arrow
        pointing its way and its compass name in the tail."""
        t = ui.metrics.target
        radius = ring_radius(t, s)
        reach_x, reach_y = ring_reach(t, s)
        cx = min(max(ball[0], area.x + reach_x), area.right - reach_x)  # the frame leaves room: a guard
        cy = min(max(ball[1], area.y + reach_y), area.bottom - reach_y)
        moves = state.legal_moves()
        for d in range(6):
            ux, uy = unit(d)
            centre = (round(cx + ux * radius), round(cy + uy * radius))
            move = self._direction_move(d, stage, moves)
            ok = move is not None and move in moves
            r = target_rect(centre, t)
            ui.add(
                Widget(
                    r,
                    f"rio:dir:{DIRECTION_NAMES[d]}",
                    lambda d=d, stage=stage: self._tap_direction(d, stage, state, actions),
                    True,
                    f"rio:dir:{DIRECTION_NAMES[d]}",
                    kind="tile",
                )
            )
            pygame.draw.circle(ui.surface, (22, 24, 30) if ok else (64, 66, 72), centre, t // 2 - 1)
            pygame.draw.circle(ui.surface, theme.MUTED, centre, t // 2 - 1, 2)
            pygame.draw.polygon(ui.surface, theme.SELECTED if ok else theme.MUTED, arrow_points(centre, d, t))
            ui.text(
                DIRECTION_NAMES[d],
                (round(centre[0] - ux * t * 0.25), round(centre[1] - uy * t * 0.25)),
                ui.metrics.tiny,
                theme.TEXT if ok else theme.MUTED,
                "center",
            )

    def _direction_move(self, d: int, stage: str, moves: Sequence[Move]) -> Move | None:
        if stage == "curve":
            return next((m for m in moves if isinstance(m, Curve) and m.direction == d), Curve(d))
        if self.club is None:
            return None
        return Shot(self.club, d)

    def _tap_direction(self, d: int, stage: str, state: GameState, actions: TableActions) -> None:
        move = self._direction_move(d, stage, state.legal_moves())
        if move is None:
            actions.say("Choose a club first, then tap a direction.")
            return
        if move in state.legal_moves():
            actions.play(move)
        else:
            actions.why_not(move)

    # --- the course editor ----------------------------------------------------------------------
    def _free(self, moves: Sequence[Move]) -> tuple[list[Pos], list[str]]:
        boards = [m.placement for m in moves if isinstance(m, PlaceBoard)]
        slots = sorted({p.slot for p in boards})
        ids = sorted({p.board for p in boards}, key=list(load_boards()).index)
        return slots, ids

    def _draw_design(
        self, ui: Ui, area: pygame.Rect, state: GameState, view: dict[str, Any], actions: TableActions
    ) -> None:
        design = view.get("design", {})
        spaces = design.get("spaces", [])
        moves = state.legal_moves()
        slots, ids = self._free(moves)
        if self.slot not in slots:
            self.slot = slots[0] if len(slots) == 1 else None
        if self.zoom is not None:
            mine = [c for c in spaces if c["board"] == self.zoom]
            if mine:
                self._draw_zoom(ui, area, state, mine, actions)
                return
            self.zoom = None
        cells = [(c["q"], c["r"]) for c in spaces]
        ghost = [] if self.green_mode else slots
        for sl in ghost:
            cq, cr = slot_centre(sl)
            cells += [(cq + q, cr + r) for q, r in ((2, 0), (-2, 0), (0, 2), (0, -2), (2, -2), (-2, 2))]
        frame = Frame(cells or [(0, 0)], area, max_size=26)
        s = frame.s
        t = ui.metrics.target
        # slots too close for 9 mm targets that do not overlap are not tappable: the slot and board
        # arrows in the choices panel do the choosing alone
        gap = slot_gap(s)
        tappable = gap >= t
        self._place_spaces(ui, frame, spaces)
        for c in spaces:
            self._hex(ui, frame.xy((c["q"], c["r"])), s * 0.96, c["terrain"], c["green"])
        if self.green_mode:
            placed = sorted({c["board"] for c in spaces}) if tappable else []
            for b in placed:
                pts = [frame.xy((c["q"], c["r"])) for c in spaces if c["board"] == b]
                centre = (sum(p[0] for p in pts) // len(pts), sum(p[1] for p in pts) // len(pts))
                ui.add(
                    Widget(
                        target_rect(centre, t),
                        f"rio:zoom:{b}",
                        lambda b=b: self._zoom(b),
                        True,
                        f"rio:zoom:{b}",
                        kind="tile",
                    )
                )
                pygame.draw.circle(ui.surface, (30, 30, 30), centre, max(16, t // 4))
                pygame.draw.circle(ui.surface, theme.SELECTED, centre, max(16, t // 4), 2)
                ui.text("+", centre, ui.metrics.small, theme.SELECTED, "center")
            return
        for sl in slots:
            centre = frame.xy(slot_centre(sl))
            chosen = sl == self.slot
            if chosen and ids:
                board = ids[self.board_pick % len(ids)]
                for pos, terrain in board_cells(board, sl, self.turn):
                    self._hex(ui, frame.xy(pos), s * 0.9, terrain)
                outline = [frame.xy(p) for p in _ring(slot_centre(sl))]
                pygame.draw.polygon(ui.surface, theme.SELECTED, outline, 3)
            else:
                outline = [frame.xy(p) for p in _ring(slot_centre(sl))]
                pygame.draw.polygon(ui.surface, theme.MUTED, outline, 2)
                ui.text("+", centre, ui.metrics.body, theme.MUTED, "center")
            if not tappable:
                continue
            ui.add(
                Widget(
                    target_rect(centre, int(min(gap, t + 16, max(t, s * 5)))),
                    f"rio:slot:{sl[0]},{sl[1]}",
                    lambda sl=sl: self._pick_slot(sl),
                    True,
                    f"rio:slot:{sl[0]},{sl[1]}",
                    kind="tile",
                )
            )

    def _draw_zoom(
        self, ui: Ui, area: pygame.Rect, state: GameState, mine: list[dict[str, Any]], actions: TableActions
    ) -> None:
        frame = Frame([(c["q"], c["r"]) for c in mine], area, max_size=60)
        t = ui.metrics.target
        side = max(t, int(min(t + 8, frame.s * SPACE_GAP)))  # 9 mm, and no overlap while they fit
        for c in mine:
            pos = (c["q"], c["r"])
            centre = frame.xy(pos)
            self._hex(ui, centre, frame.s * 0.96, c["terrain"], c["green"])
            if c["terrain"] != "tee" and not c["green"]:
                move = PlaceGreen(pos)
                ui.add(
                    Widget(
                        target_rect(centre, side),
                        f"rio:space:{pos[0]},{pos[1]}",
                        lambda mv=move: self._try(mv, state, actions),
                        True,
                        f"rio:space:{pos[0]},{pos[1]}",
                        kind="tile",
                    )
                )

    def _zoom(self, board: int) -> None:
        self.zoom = board

    def _pick_slot(self, slot: Pos) -> None:
        self.slot = slot

    def _try(self, move: Move, state: GameState, actions: TableActions) -> None:
        if move in state.legal_moves():
            actions.play(move)
        else:
            actions.why_not(move)

    def chosen_placement(self, state: GameState) -> Placement | None:
        _, ids = self._free(state.legal_moves())
        if self.slot is None or not ids:
            return None
        return Placement(ids[self.board_pick % len(ids)], self.slot, self.turn)

    # --- choices --------------------------------------------------------------------------------
    def side_height(self, ui: Ui, state: GameState) -> int | None:
        """Portrait: room for the course editor's five rows of 9 mm buttons while a hole is designed;
        while caddie cards are dealt, for four of them a page (ui/screens/table.py); in play the aiming
        panel's hint, two rows of clubs and the list button (and the caddie cards when they are open),
        so that the course in play gets the rest. The same in every state of a
        phase, so the course keeps its place."""
        m = ui.metrics
        if not m.portrait:
            return None
        if getattr(state, "phase", "") == "deal":  # the caddie cards by name: two rows of two on a page
            line = ui.font(m.small).get_linesize()  # (a card chosen twice takes two lines), then a row
            card = max(m.button_h, 2 * ui.font(m.body).get_linesize() + 8)  # of arrows, Random, Confirm
            return 2 * line + 4 + 2 * card + m.button_h + 4 * m.pad
        if getattr(state, "phase", "") in ("play", "over"):
            line = ui.font(m.small).get_linesize()
            cards = 2 * line if state.options.get("cards") == "open" else 0
            return line + 4 + 3 * (m.button_h + m.pad) + cards
        return 5 * m.target + 4 * m.pad

    def draw_choices(
        self, ui: Ui, rect: pygame.Rect, state: GameState, moves: Sequence[Move], actions: TableActions
    ) -> None:
        t = getattr(state, "turn", None)
        phase = getattr(state, "phase", "")
        own = phase == "design" or (
            phase == "play" and t is not None and t.stage == "aim" and not t.interrupts
        )
        if not own or self.listing:
            if own:
                t = ui.metrics.target
                back = pygame.Rect(rect.x, rect.y, rect.width, t)
                ui.button(back, "< Back", self._set_listing(False), id="rio:back", size=ui.metrics.small)
                rect = pygame.Rect(
                    rect.x,
                    rect.y + t + ui.metrics.pad,
                    rect.width,
                    rect.height - t - ui.metrics.pad,
                )
            super().draw_choices(ui, rect, state, moves, actions)
            return
        if phase == "design":
            self._design_choices(ui, rect, state, moves, actions)
        else:
            self._aim_choices(ui, rect, state, moves, actions)

    def _set_listing(self, on: bool):
        def go() -> None:
            self.listing, self.page, self.prefix = on, 0, ()

        return go

    def _rows(self, ui: Ui, rect: pygame.Rect, n: int) -> int:
        m = ui.metrics
        return max(m.target, min(m.button_h, (rect.height - (n - 1) * m.pad) // n))

    def _aim_choices(
        self, ui: Ui, rect: pygame.Rect, state: GameState, moves: Sequence[Move], actions: TableActions
    ) -> None:
        m = ui.metrics
        clubs = load_clubs()
        ids = list(clubs)
        cols = 2 if not m.portrait else 3
        rows = -(-len(ids) // cols)
        line = ui.font(m.small).get_linesize()
        hint = f"{clubs[self.club].name}: tap an arrow" if self.club in clubs else "Choose a club"
        ui.text(hint, (rect.x, rect.y), m.small, theme.ACCENT if self.club else theme.MUTED, width=rect.width)
        y = rect.y + line + 4
        h = self._rows(ui, pygame.Rect(rect.x, y, rect.width, rect.bottom - y), rows + 1)
        bw = (rect.width - (cols - 1) * m.pad) // cols
        for k, cid in enumerate(ids):
            r, c = divmod(k, cols)
            chosen = cid == self.club
            die = clubs[cid].kind()
            top = max((f.number or 0) for f in die.faces)
            ui.button(
                pygame.Rect(rect.x + c * (bw + m.pad), y + r * (h + m.pad), bw, h),
                ("> " if chosen else "") + clubs[cid].name,
                lambda cid=cid: self._pick_club(cid),
                id=f"rio:club:{cid}",
                selected=chosen,
                size=m.small,
                colour=theme.GO if chosen else None,
                sub=ui.words_that_fit([f"d{len(die.faces)}, top {top}", f"d{len(die.faces)} top {top}",
                                       f"d{len(die.faces)}"], m.small, bw - 12) if h >= 2 * line else "",
            )
        y += rows * (h + m.pad)
        others = [mv for mv in moves if not isinstance(mv, Shot)]
        label = f"Cards and more ({len(others)})" if others else "All moves"
        ui.button(
            pygame.Rect(rect.x, y, rect.width, h), label, self._set_listing(True), id="rio:list", size=m.small
        )
        y += h + m.pad
        t = getattr(state, "turn", None)
        hands = getattr(state, "hands", None)
        if t is not None and hands and state.options.get("cards") == "open" and rect.bottom - y >= line:
            cards = load_cards()
            names = ", ".join(cards[c].name for c in hands[t.player]) or "none"
            ui.paragraph(
                f"Caddie cards: {names}",
                pygame.Rect(rect.x, y, rect.width, rect.bottom - y),
                m.small,
                theme.MUTED,
            )

    def _pick_club(self, cid: str) -> None:
        self.club = cid

    def _design_choices(
        self, ui: Ui, rect: pygame.Rect, state: GameState, moves: Sequence[Move], actions: TableActions
    ) -> None:
        m = ui.metrics
        slots, ids = self._free(moves)
        h = self._rows(ui, rect, 5)
        half = (rect.width - m.pad) // 2
        y = rect.y
        for label, green in (("Boards", False), ("Green", True)):
            on = self.green_mode == green
            ui.button(
                pygame.Rect(rect.x if not green else rect.right - half, y, half, h),
                label,
                self._mode(green),
                id=f"rio:mode:{label.lower()}",
                selected=on,
                size=m.small,
                colour=theme.GO if on else theme.BUTTON_OFF,
            )
        y += h + m.pad
        if self.green_mode:
            n = len(getattr(state, "design", []))
            now = "whole course" if self.zoom is None else f"board {self.zoom + 1} of {n}"
            self._picker(ui, rect, y, h, now, "rio:zoom", self._step_zoom(n))
            y += h + m.pad
            if self.zoom is not None:
                ui.button(
                    pygame.Rect(rect.x, y, rect.width, h),
                    "Whole course",
                    self._unzoom,
                    id="rio:unzoom",
                    size=m.small,
                )
            else:
                ui.paragraph(
                    "Zoom into a board, then tap a space.",
                    pygame.Rect(rect.x, y, rect.width, h),
                    m.small,
                    theme.MUTED,
                    max_lines=2,
                )
            y += 2 * (h + m.pad)
        elif slots and ids:
            where = (
                "choose a slot"
                if self.slot not in slots
                else f"slot {slots.index(self.slot) + 1} of {len(slots)}"
            )
            self._picker(ui, rect, y, h, where, "rio:slot", self._step_slot(slots))
            y += h + m.pad
            board = load_boards()[ids[self.board_pick % len(ids)]]
            self._picker(ui, rect, y, h, board.name, "rio:board", self._cycle(len(ids)))
            y += h + m.pad
            ui.button(
                pygame.Rect(rect.x, y, half, h),
                "Rotate",
                self._rotate,
                id="rio:turn",
                size=m.small,
                sub=f"{60 * self.turn} deg" if h >= 2 * ui.font(m.small).get_linesize() else "",
            )
            ui.button(
                pygame.Rect(rect.right - half, y, half, h),
                "Place",
                lambda: self._place(state, actions),
                id="rio:place",
                size=m.small,
                colour=theme.CONFIRM,
            )
            y += h + m.pad
        else:
            ui.paragraph("No more boards fit", pygame.Rect(rect.x, y, rect.width, h), m.small, theme.MUTED)
            y += 3 * (h + m.pad)
        ready = TeeOff() in moves
        ui.button(
            pygame.Rect(rect.x, y, half, h),
            "Tee off",
            lambda: self._try(TeeOff(), state, actions),
            id="rio:teeoff",
            colour=theme.CONFIRM if ready else theme.BUTTON_OFF,
            text_colour=theme.TEXT if ready else theme.MUTED,
            size=m.small,
        )
        ui.button(
            pygame.Rect(rect.right - half, y, half, h),
            "More",
            self._set_listing(True),
            id="rio:list",
            size=m.small,
            sub="courses" if h >= 2 * ui.font(m.small).get_linesize() else "",
        )

    def _picker(self, ui: Ui, rect: pygame.Rect, y: int, h: int, text: str, wid: str, step) -> None:
        """``< text >``: two arrow buttons that step through a list."""
        t = ui.metrics.target
        ui.button(pygame.Rect(rect.x, y, t, h), "<", lambda: step(-1), id=f"{wid}:prev")
        ui.button(pygame.Rect(rect.right - t, y, t, h), ">", lambda: step(1), id=f"{wid}:next")
        ui.text(
            text,
            (rect.centerx, y + h // 2),
            ui.metrics.small,
            theme.TEXT,
            "center",
            rect.width - 2 * t - 8,
        )

    def _place(self, state: GameState, actions: TableActions) -> None:
        place = self.chosen_placement(state)
        if place is None:
            actions.say("Choose a slot for the board first (tap a + or use the slot arrows).")
            return
        self._try(PlaceBoard(place), state, actions)

    def _step_slot(self, slots: list[Pos]):
        def go(k: int) -> None:
            i = slots.index(self.slot) + k if self.slot in slots else (0 if k > 0 else -1)
            self.slot = slots[i % len(slots)]

        return go

    def _step_zoom(self, n: int):
        def go(k: int) -> None:
            if n:
                self.zoom = ((self.zoom if self.zoom is not None else (-1 if k > 0 else 0)) + k) % n

        return go

    def _mode(self, green: bool):
        def go() -> None:
            self.green_mode, self.zoom = green, None

        return go

    def _unzoom(self) -> None:
        self.zoom = None

    def _cycle(self, n: int):
        def go(step: int) -> None:
            self.board_pick = (self.board_pick + step) % max(1, n)

        return go

    def _rotate(self) -> None:
        self.turn = (self.turn + 1) % 6


def _ring(centre: Pos) -> list[Pos]:
    """The six corner spaces of a radius-2 board around ``centre``, in order (its outline)."""
    q, r = centre
    return [(q + 2, r - 2), (q + 2, r), (q, r + 2), (q - 2, r + 2), (q - 2, r), (q, r - 2)]


VIEW = RollInOneView
