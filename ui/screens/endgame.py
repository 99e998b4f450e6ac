"""End of game: who won, final scores, the score history as a chart, where the record is saved."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import pygame

from companion.errors import CompanionError
from companion.protocol import GameOver
from companion.session import Game
from ui import theme
from ui.screen import Screen
from ui.screens.common import header, player_label
from ui.standings import scorecard, standings
from ui.theme import PlayerColour, colour_named
from ui.timeline import timeline
from ui.widgets import Ui

if TYPE_CHECKING:
    from ui.app import App

log = logging.getLogger(__name__)


class EndScreen(Screen):
    name = "end"

    def __init__(self, app: App, game_id: int, game: Game) -> None:
        super().__init__(app)
        self.gid = game_id
        self.game = game
        start, steps = timeline(game.events)
        self.series = [start, *(s.scores for s in steps)]
        req = game.state.request()
        self.prompt = req.prompt if isinstance(req, GameOver) else "Game stopped"
        self.winners = req.winners if isinstance(req, GameOver) else ()

    def colour(self, player: int) -> PlayerColour:
        chosen = self.app.settings.colours.get(self.game.state.players[player])
        return colour_named(chosen) if chosen else theme.PALETTE[player % len(theme.PALETTE)]

    def undo_last(self) -> None:
        try:
            self.game.undo()
            self.app.store.mark_finished(self.gid, False)
        except CompanionError as exc:
            self.app.message("Cannot undo", str(exc))
            return
        self.app.nav.table(self.gid, self.game)

    def again(self) -> None:
        s = self.game.start
        self.app.nav.new_game(s.game, list(s.players), dict(s.options), step=1)

    def home(self) -> None:
        self.app.nav.home()

    back = home

    def draw(self, ui: Ui) -> None:
        m = ui.metrics
        area = header(ui, f"Game over: {self.prompt}")
        buttons_y = area.bottom - m.button_h
        body = pygame.Rect(area.x, area.y, area.width, buttons_y - area.y - m.pad)
        if m.portrait:
            rows = len(self.game.state.players)
            line = max(ui.font(m.body).get_linesize() + 8, m.target // 2)
            high = 3 * ui.font(m.small).get_linesize() + 2 * m.pad + line * rows
            scores = pygame.Rect(body.x, body.y, body.width, high)
            chart = pygame.Rect(
                body.x, scores.bottom + m.pad, body.width, body.bottom - scores.bottom - m.pad
            )
        else:
            scores = pygame.Rect(body.x, body.y, 280, body.height)
            chart = pygame.Rect(scores.right + m.pad, body.y, body.width - 280 - m.pad, body.height)
        self._draw_scores(ui, scores)
        card = scorecard(self.game.state.view())
        if card is not None:
            self._draw_scorecard(ui, chart, card)
        else:
            self._draw_chart(ui, chart)
        bw = (area.width - 2 * m.pad) // 3
        ui.button(pygame.Rect(area.x, buttons_y, bw, m.button_h), "Home", self.home, id="end:home")
        ui.button(
            pygame.Rect(area.x + bw + m.pad, buttons_y, bw, m.button_h),
            ui.words_that_fit(("Play again", "Again"), m.body, bw - 12),
            self.again,
            id="end:again",
            colour=theme.GO,
        )
        ui.button(
            pygame.Rect(area.x + 2 * (bw + m.pad), buttons_y, bw, m.button_h),
            ui.words_that_fit(("Undo last", "Undo"), m.body, bw - 12),
            self.undo_last,
            id="end:undo",
            enabled=bool(self.game.actions()),
        )

    def _draw_scores(self, ui: Ui, rect: pygame.Rect) -> None:
        """Players in the order of the game's own outcome (golf: lowest first); ties share a rank."""
        m = ui.metrics
        ui.panel(rect, theme.PANEL)
        state = self.game.state
        scores = state.scores()
        y = rect.y + m.pad
        ui.text("Final scores", (rect.x + m.pad, y), m.small, theme.MUTED)
        y += ui.font(m.small).get_linesize() + 4
        line = max(ui.font(m.body).get_linesize() + 8, m.target // 2)
        for rank, i in standings(scores, self.winners):
            won = i in self.winners
            text = f"{scores[i]:g}"
            sw = ui.font(m.body).size(text)[0]
            player_label(
                ui,
                (rect.x + m.pad, y + line // 2),
                f"{rank}. {state.players[i]}" + (" (won)" if won else ""),
                self.colour(i),
                m.body,
                rect.width - sw - 3 * m.pad,
            )
            ui.text(text, (rect.right - m.pad, y + line // 2), m.body, theme.ACCENT if won else theme.TEXT,
                    "midright")
            y += line
        n = len(self.game.events)
        saved = f"Saved as game {self.gid}: {n} events in the record"
        ui.paragraph(
            saved,
            pygame.Rect(rect.x + m.pad, y + m.pad, rect.width - 2 * m.pad, rect.bottom - y - m.pad),
            m.small,
            theme.MUTED,
        )

    def _draw_scorecard(self, ui: Ui, rect: pygame.Rect, card: list[list[float]]) -> None:
        """A golf game's card: a row per player (in finishing order), a column per hole, the total."""
        m = ui.metrics
        ui.panel(rect, theme.PANEL)
        state = self.game.state
        holes = max((len(r) for r in card), default=0)
        size = m.small
        font = ui.font(size)
        name_w = max(font.size(p)[0] for p in state.players) + 12
        total_w = font.size("Total")[0] + 12
        # as many holes per block as fit; the card wraps onto more blocks (rows of holes) if needed
        cell = max(font.size("88")[0] + 10, 1)
        per = max(1, min(holes, (rect.width - 2 * m.pad - name_w - total_w) // cell))
        line = font.get_linesize() + 4
        y = rect.y + m.pad
        ui.text("Scorecard, hole by hole", (rect.x + m.pad, y), size, theme.MUTED)
        y += line
        order = [i for _, i in standings(state.scores(), self.winners)]
        for start in range(0, max(holes, 1), per):
            x0 = rect.x + m.pad + name_w
            for h in range(start, min(holes, start + per)):
                ui.text(str(h + 1), (x0 + (h - start) * cell + cell // 2, y), size, theme.MUTED, "midtop")
            if start + per >= holes:
                ui.text("Total", (rect.right - m.pad, y), size, theme.MUTED, "topright")
            y += line
            for i in order:
                if y + line > rect.bottom:
                    return
                ui.text(state.players[i], (rect.x + m.pad, y), size, theme.TEXT)
                for h in range(start, min(holes, start + per)):
                    v = card[i][h] if h < len(card[i]) else None
                    ui.text("-" if v is None else f"{v:g}", (x0 + (h - start) * cell + cell // 2, y), size,
                            theme.TEXT, "midtop")
                if start + per >= holes:
                    ui.text(f"{sum(card[i]):g}", (rect.right - m.pad, y), size, theme.ACCENT, "topright")
                y += line
            y += 4

    def _draw_chart(self, ui: Ui, rect: pygame.Rect) -> None:
        """Each player's score after every action: a line with the player's marker shape at its end."""
        m = ui.metrics
        ui.panel(rect, theme.PANEL)
        ui.text(
            "Score over the game (left: start, right: end)",
            (rect.x + m.pad, rect.y + 4),
            m.small,
            theme.MUTED,
        )
        players = self.game.state.players
        # room on the right for the longest name beside its line's end (a third of the chart at most)
        names_w = min(rect.width // 3, max(ui.font(m.small).size(p)[0] for p in players) + 30)
        plot = rect.inflate(-2 * m.pad - 40 - names_w, -2 * m.pad - 40)
        plot.x = rect.x + m.pad + 40
        plot.y = rect.y + 4 + ui.font(m.small).get_linesize() + 6
        series = self.series
        top = max((max(s) for s in series if s), default=1) or 1
        low = min(0, *(min(s) for s in series if s))
        span = (top - low) or 1
        pygame.draw.line(ui.surface, theme.MUTED, plot.bottomleft, plot.bottomright, 2)
        pygame.draw.line(ui.surface, theme.MUTED, plot.bottomleft, plot.topleft, 2)
        ui.text(f"{top:g}", (plot.x - 6, plot.y), m.small, theme.MUTED, "topright")
        ui.text(f"{low:g}", (plot.x - 6, plot.bottom), m.small, theme.MUTED, "bottomright")
        n = max(1, len(series) - 1)
        ends = []
        for i in range(len(players)):
            col = self.colour(i)
            pts = [
                (plot.x + k * plot.width / n, plot.bottom - (s[i] - low) * plot.height / span + i * 2)
                for k, s in enumerate(series)
            ]
            if len(pts) > 1:
                pygame.draw.lines(ui.surface, col.rgb, False, pts, 3)
            end = (int(pts[-1][0]), int(pts[-1][1]))
            ui.shape(col.shape, end, 8, col.rgb)
            ends.append((end[1], i, end[0]))
        step = ui.font(m.small).get_linesize()
        last = -10_000
        for y, i, x in sorted(ends):  # labels beside the line ends, never on top of each other
            y = max(y, last + step)
            last = y
            ui.text(players[i], (x + 12, y), m.small, theme.TEXT, "midleft", rect.right - x - 14)
