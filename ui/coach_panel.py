"""The Coach toggle on the table: the odds of each choice, worked out beside the frame loop.

Off by default, so it never spoils a game. When on, each new position (a new event in the record)
is handed, as a copy, to one worker thread running :func:`companion.coach.advise_in_stages`; the
screen only draws what is ready ("Working out the odds..." until then), shows a quick first part
of an answer while the rest is worked out (Roll In One's landings before the strokes to hole out,
Doshboardgolf's straight aims before the elbows), and drops an answer that went stale.
The panel lies over the game's board: per move its value (a chance as a percentage, an expected
value with its error bar when estimated), the best marked; the golf games add the landing
distribution of the best shot as a heat map (on the course itself, translucent, when the game's view
has drawn one; the panel then takes the lower part of the board), Hop'n'ROLL the distribution of
the number.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pygame

from companion.coach import Advice, NothingToDecide, advise_in_stages
from companion.protocol import GameState
from ui import theme
from ui.widgets import Ui

log = logging.getLogger(__name__)

Adviser = Callable[[GameState], Advice | Iterable[Advice]]  # one answer, or its stages in order


class CoachPanel:
    """The toggle's state, the worker, and the drawing."""

    def __init__(self, adviser: Adviser = advise_in_stages) -> None:
        self.on = False
        self.advice: Advice | None = None
        self.note = ""
        self._adviser = adviser
        self._pool: ThreadPoolExecutor | None = None
        self._key: int | None = None
        self._future: Future[tuple[int, Advice] | str] | None = None
        self._ready: tuple[int, Advice] | None = None  # the latest stage of the answer being worked out
        self.drawn: pygame.Rect | None = None  # where the panel was last drawn

    # --- the worker ---------------------------------------------------------------------------
    def toggle(self) -> None:
        self.on = not self.on
        self._key, self._future, self.advice, self.note = None, None, None, ""

    def update(self, state: GameState, key: int) -> None:
        """Start working on a new position (``key`` counts the record's events); collect a result."""
        if not self.on:
            return
        if key != self._key:
            self._key, self.advice, self.note = key, None, "Working out the odds..."
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="coach")
            if self._future is not None:
                self._future.cancel()
            self._future = self._pool.submit(self._work, state.clone(), key)
        future = self._future
        ready = self._ready
        if future is not None and not future.done() and ready is not None and ready[0] == self._key:
            self.advice, self.note = ready[1], ""  # a first part, while the rest is worked out
        if future is not None and future.done():
            self._future = None
            got = future.result()
            if isinstance(got, tuple) and got[0] == self._key:  # an answer for this very position
                self.advice, self.note = got[1], ""
            elif isinstance(got, str):
                self.note = got

    def _work(self, state: GameState, key: int) -> tuple[int, Advice] | str:
        try:
            got = self._adviser(state)
            if isinstance(got, Advice):
                return key, got
            last = None
            for last in got:
                self._ready = (key, last)
                if self._key != key:
                    break  # a newer position is waiting: no need for the rest
            if last is None:
                return "No odds here"
            return key, last
        except NothingToDecide as exc:
            return f"Nothing to decide now: {exc}"
        except Exception as exc:  # the coach must never take the table down
            log.exception("coach failed")
            return f"No odds here ({type(exc).__name__})"

    @property
    def busy(self) -> bool:
        return self._future is not None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    # --- drawing ------------------------------------------------------------------------------
    def draw(self, ui: Ui, rect: pygame.Rect, state: GameState, key: int, view: Any = None) -> None:
        """Draw over the board ``rect``; for the golf games, when ``view`` (the game's view, as it last
        drew the board) places cells on the screen, the landing heat map goes on the course itself
        and the panel takes the lower part of the board only."""
        self.update(state, key)
        if not self.on:
            return
        advice = self.advice
        if advice is not None and view is not None and draw_heat_on_board(ui, rect, advice, view):
            low = rect.height * 2 // 5
            rect = pygame.Rect(rect.x, rect.bottom - low, rect.width, low)
            self._draw_panel(ui, rect, advice, picture=False)
            return
        self._draw_panel(ui, rect, advice)

    def _draw_panel(self, ui: Ui, rect: pygame.Rect, advice: Advice | None, picture: bool = True) -> None:
        m = ui.metrics
        self.drawn = rect
        ui.panel(rect, theme.PANEL_HI, border=theme.ACCENT, width=2)
        inner = rect.inflate(-2 * m.pad, -2 * m.pad)
        if advice is None:
            ui.paragraph(self.note or "Working out the odds...", inner, m.small, theme.MUTED)
            return
        y = inner.y
        y += ui.paragraph(advice.question, pygame.Rect(inner.x, y, inner.width, inner.height), m.small,
                          theme.ACCENT, max_lines=1)
        how = "exact" if advice.exact else "estimated"
        y += ui.paragraph(f"{advice.measure} ({how})", pygame.Rect(inner.x, y, inner.width, inner.height),
                          m.small, theme.MUTED, max_lines=1)
        picture = _picture(advice) if picture else None
        rows_h = inner.bottom - y if picture is None else (inner.bottom - y) // 2
        self._draw_moves(ui, pygame.Rect(inner.x, y, inner.width, rows_h), advice)
        if picture is not None:
            gap = m.pad // 2
            picture(ui, pygame.Rect(inner.x, y + rows_h + gap, inner.width, inner.bottom - y - rows_h - gap))

    def _draw_moves(self, ui: Ui, rect: pygame.Rect, advice: Advice) -> None:
        m = ui.metrics
        step = ui.font(m.small).get_linesize()
        ranked = sorted(advice.moves, key=lambda a: -a.value if advice.higher_is_better else a.value)
        strokes = advice.extra.get("strokes", {})  # Roll In One: strokes to hole out after each shot
        for i, move in enumerate(ranked[: max(0, rect.height // step)]):
            colour = theme.ACCENT if move.best else theme.TEXT
            mark = "best: " if move.best else ""
            err = f" ± {move.error:.2g}" if move.error else ""
            holing = f", holed in {strokes[move.move]:.1f}" if move.move in strokes else ""
            y = rect.y + i * step
            ui.text(f"{mark}{move.move}{holing}", (rect.x, y), m.small, colour, width=int(rect.width * 0.64))
            ui.text(f"{move.value:.2f}{err}", (rect.right, y), m.small, colour, "topright",
                    int(rect.width * 0.36))
        if not advice.moves:
            ui.text("No choice yet: what the dice may give", (rect.x, rect.y), m.small, theme.MUTED,
                    width=rect.width)


def _picture(advice: Advice) -> Callable[[Ui, pygame.Rect], None] | None:
    """What to draw under the moves: a heat map for the golf games, a distribution for Hop'n'ROLL."""
    best = advice.best
    if advice.game in ("doshboardgolf", "roll-in-one") and best is not None:
        return lambda ui, rect: draw_heat(ui, rect, advice.game, dict(best.outcomes), advice.extra)
    if advice.game == "hop-n-roll":
        return lambda ui, rect: _draw_bars(ui, rect, advice.extra.get("number", []))
    return None


def cell_xy(game: str, cell: str) -> tuple[float, float] | None:
    """Where a landing cell lies, in cell widths (None for "green"/"holed": drawn at the target)."""
    if game == "roll-in-one":
        if "," not in cell:
            return None
        q, r = (int(v) for v in cell.split(","))
        return math.sqrt(3) * (q + r / 2), 1.5 * r
    from companion.games.doshboardgolf.board import axial_of, centre

    try:
        return centre(axial_of(cell))
    except ValueError:
        return None


def draw_heat(ui: Ui, rect: pygame.Rect, game: str, cells: dict[str, float], extra: dict[str, Any]) -> None:
    """The landing chances as discs, brighter for likelier cells, with the start and the target."""
    if game == "roll-in-one":
        start = tuple(extra["ball"]) if extra.get("ball") else None
        targets = [tuple(g) for g in extra.get("greens", [])]
        marks = [cell_xy(game, f"{p[0]},{p[1]}") for p in ([start] if start else [])]
        goals = [cell_xy(game, f"{g[0]},{g[1]}") for g in targets]
    else:
        marks, goals = [cell_xy(game, extra.get("lie", ""))], [cell_xy(game, extra.get("target", ""))]
    goal = next((g for g in goals if g is not None), None)
    points = [(cell_xy(game, c) or goal, p) for c, p in cells.items()]
    known = [xy for xy, _ in points if xy is not None] + [xy for xy in marks + goals if xy is not None]
    if not known:
        return
    x0, x1 = min(x for x, _ in known) - 1, max(x for x, _ in known) + 1
    y0, y1 = min(y for _, y in known) - 1, max(y for _, y in known) + 1
    scale = min(rect.width / (x1 - x0), rect.height / (y1 - y0))

    def at(xy: tuple[float, float]) -> tuple[int, int]:
        ox = rect.x + (rect.width - (x1 - x0) * scale) / 2
        oy = rect.y + (rect.height - (y1 - y0) * scale) / 2
        return int(ox + (xy[0] - x0) * scale), int(oy + (xy[1] - y0) * scale)

    radius = max(3, int(scale * 0.5))
    top = max((p for _, p in points), default=1.0) or 1.0
    for xy, p in points:
        if xy is None:
            continue
        t = p / top
        colour = tuple(int(a + (b - a) * t) for a, b in zip(theme.PANEL, theme.BAD, strict=True))
        pygame.draw.circle(ui.surface, colour, at(xy), radius)
    for xy in marks:
        if xy is not None:
            pygame.draw.circle(ui.surface, theme.TEXT, at(xy), radius, 2)
    for xy in goals:
        if xy is not None:
            pygame.draw.circle(ui.surface, theme.GOOD, at(xy), radius, 3)


def board_cells(advice: Advice, view: Any) -> tuple[Callable[[str], tuple[int, int] | None], int] | None:
    """Where the game's view last drew each landing cell on the screen, and a cell's radius in
    pixels (None when the view has not drawn a course)."""
    if advice.game == "roll-in-one":
        frame = getattr(view, "frame", None)
        if frame is None:
            return None
        greens = [tuple(g) for g in advice.extra.get("greens", [])]

        def rio(cell: str) -> tuple[int, int] | None:
            if "," in cell:
                return frame.xy(tuple(int(v) for v in cell.split(",")))
            return frame.xy(greens[0]) if greens else None  # "green": drawn on the (first) open green

        return rio, max(2, int(frame.s * 0.8))
    if advice.game == "doshboardgolf":
        g = getattr(view, "geometry", None)
        if g is None or getattr(view, "mode", "board") != "board":  # a card shown instead of the board
            return None
        target = advice.extra.get("target", "")
        return (lambda cell: g.cell(target if cell == "holed" else cell)), max(2, int(g.u * 0.5))
    return None


def draw_heat_on_board(ui: Ui, rect: pygame.Rect, advice: Advice, view: Any) -> bool:
    """The best shot's landing chances on the course as the view drew it: a translucent disc per
    cell, more opaque for likelier cells. False (nothing drawn) if the view places no cells."""
    best = advice.best
    placed = board_cells(advice, view) if best is not None else None
    if best is None or placed is None:
        return False
    at, radius = placed
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    top = max((p for _, p in best.outcomes), default=1.0) or 1.0
    for cell, p in best.outcomes:
        xy = at(cell)
        if xy is None or p <= 0:
            continue
        alpha = int(70 + 150 * p / top)
        pygame.draw.circle(layer, (*theme.BAD[:3], alpha), (xy[0] - rect.x, xy[1] - rect.y), radius)
    ui.surface.blit(layer, rect.topleft)
    return True


def _draw_bars(ui: Ui, rect: pygame.Rect, dist: list[list[Any]] | list[tuple[str, float]]) -> None:
    m = ui.metrics
    if not dist:
        return
    step = max(1, rect.height // len(dist))
    for i, (label, p) in enumerate(dist):
        y = rect.y + i * step
        ui.text(f"{label} {p:.0%}", (rect.x, y), m.small, theme.TEXT, width=rect.width // 2)
        bar = pygame.Rect(rect.x + rect.width // 2, y + 4, int(rect.width / 2 * p), max(2, step - 8))
        pygame.draw.rect(ui.surface, theme.ACCENT, bar)
