"""New game, in three steps: the game, the players (names and colours), the table's rule options."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from companion.errors import CompanionError
from companion.games import all_games
from companion.protocol import GameInfo
from ui import theme
from ui.screen import Screen
from ui.screens.common import header, player_label
from ui.screens.overlays import Keyboard
from ui.theme import PALETTE, colour_named
from ui.views import has_dedicated_view
from ui.views.base import lines_at_body, paged_buttons
from ui.widgets import Ui

if TYPE_CHECKING:
    from ui.app import App

DEFAULT_NAMES = ("Anna", "Ben", "Chloe", "Dev", "Elif", "Femi", "Gus", "Hana")
STEPS = ("Game", "Players", "Rules")


class NewGameScreen(Screen):
    name = "newgame"

    def __init__(
        self,
        app: App,
        game_id: str | None = None,
        players: list[str] | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(app)
        self.step = 0
        self.page = 0
        self.opt_page = 0
        self.info: GameInfo | None = None
        self.players: list[str] = []
        self.colours: list[str] = []
        self.options: dict[str, Any] = {}
        if game_id is not None:
            self.choose(game_id, advance=False)
            if players:
                self.players = list(players)
                self.colours = [self._colour_of(n, i) for i, n in enumerate(players)]
            self.options.update(options or {})

    def _colour_of(self, name: str, i: int) -> str:
        used = set(self.colours[:i])
        wanted = self.app.settings.colours.get(name)
        if wanted and wanted not in used:
            return wanted
        return next(c.name for c in PALETTE if c.name not in used)

    # --- steps --------------------------------------------------------------------------------
    def choose(self, game_id: str, advance: bool = True) -> None:
        self.info = all_games()[game_id]
        n = max(self.info.min_players, min(2, self.info.max_players))
        self.players = list(DEFAULT_NAMES[:n])
        self.colours = []
        for i, name in enumerate(self.players):
            self.colours.append(self._colour_of(name, i))
        self.options = {o.key: o.default for o in self.info.options}
        if advance:
            self.step = 1

    def add_player(self) -> None:
        assert self.info is not None
        if len(self.players) < min(self.info.max_players, len(PALETTE)):
            name = next(n for n in DEFAULT_NAMES if n not in self.players)
            self.players.append(name)
            self.colours.append(self._colour_of(name, len(self.players) - 1))

    def remove_player(self) -> None:
        assert self.info is not None
        if len(self.players) > self.info.min_players:
            self.players.pop()
            self.colours.pop()

    def next_colour(self, i: int) -> None:
        used = {c for j, c in enumerate(self.colours) if j != i}
        names = [c.name for c in PALETTE]
        k = names.index(self.colours[i])
        for step in range(1, len(names) + 1):
            cand = names[(k + step) % len(names)]
            if cand not in used:
                self.colours[i] = cand
                return

    def rename(self, i: int) -> None:
        def done(text: str) -> None:
            if text and text not in self.players:
                self.players[i] = text
            elif text in self.players and text != self.players[i]:
                self.app.message("Name taken", f"{text} is already playing: choose another name.")

        self.app.show(Keyboard(self.app, f"Name of player {i + 1}", self.players[i], done))

    def start(self) -> None:
        assert self.info is not None
        try:
            gid, game = self.app.store.create(self.info.id, self.players, self.options)
        except CompanionError as exc:
            self.app.message("Cannot start", str(exc))
            return
        for name, colour in zip(self.players, self.colours, strict=True):
            self.app.settings.colours[name] = colour
        self.app.settings.save()
        self.app.nav.table(gid, game)

    def back(self) -> None:
        if self.step > 0:
            self.step -= 1
        else:
            super().back()

    # --- drawing ------------------------------------------------------------------------------
    def draw(self, ui: Ui) -> None:
        m = ui.metrics
        title = f"New game: {STEPS[self.step]} ({self.step + 1} of 3)"
        area = header(ui, title, self.back)
        bottom = pygame.Rect(area.x, area.bottom - m.button_h, area.width, m.button_h)
        body = pygame.Rect(area.x, area.y, area.width, area.height - m.button_h - m.pad)
        if self.step == 0:
            self._draw_games(ui, body)
            return
        assert self.info is not None
        if self.step == 1:
            self._draw_players(ui, body)
        else:
            self._draw_options(ui, body)
        last = self.step == 2 or not self.info.options
        label = "Start game" if last else "Next >"
        ui.button(
            pygame.Rect(bottom.right - 260, bottom.y, 260, bottom.height),
            label,
            self.start if last else lambda: setattr(self, "step", self.step + 1),
            id="newgame:next",
            colour=theme.GO,
        )
        ui.text(
            f"{self.info.name}, {len(self.players)} players",
            (bottom.x, bottom.centery),
            m.small,
            theme.MUTED,
            "midleft",
            bottom.width - 280,
        )

    def _draw_games(self, ui: Ui, rect: pygame.Rect) -> None:
        items = []
        for gid, info in all_games().items():
            note = "" if has_dedicated_view(gid) else " (standard view)"
            items.append(
                (
                    f"{info.name}, {info.min_players}-{info.max_players} players{note}",
                    lambda g=gid: self.choose(g),
                    f"game:{gid}",
                )
            )
        self.page = paged_buttons(ui, rect, items, self.page, lambda p: setattr(self, "page", p), columns=1)

    def _draw_players(self, ui: Ui, rect: pygame.Rect) -> None:
        """+ Player and - Player on top, then a row per player (colour, name), in two columns when
        one does not hold them all (up to the game's most, Roll For It!'s eight)."""
        m = ui.metrics
        assert self.info is not None
        bw = max(ui.font(m.body).size(t)[0] for t in ("+ Player", "- Player")) + 32
        ui.button(
            pygame.Rect(rect.x, rect.y, bw, m.button_h),
            "+ Player",
            self.add_player,
            id="players:add",
            enabled=len(self.players) < min(self.info.max_players, len(PALETTE)),
        )
        ui.button(
            pygame.Rect(rect.x + bw + m.pad, rect.y, bw, m.button_h),
            "- Player",
            self.remove_player,
            id="players:remove",
            enabled=len(self.players) > self.info.min_players,
        )
        hint = pygame.Rect(rect.x + 2 * (bw + m.pad), rect.y, rect.width - 2 * (bw + m.pad), m.button_h)
        tip = "Tap a name to change it, a colour to cycle it"
        ui.paragraph_fit(tip, hint, (m.small, m.tiny), theme.MUTED, "center")
        top = rect.y + m.button_h + m.pad
        area = pygame.Rect(rect.x, top, rect.width, rect.bottom - top)
        n = max(1, len(self.players))
        row_h = max(ui.metrics.target, min(m.button_h, (area.height + m.pad) // n - m.pad))
        per_col = max(1, (area.height + m.pad) // (row_h + m.pad))
        cols = 1 if n <= per_col else 2
        cw = (area.width - (cols - 1) * 2 * m.pad) // cols
        sw_w = min(200, cw * 2 // 5)
        for i, name in enumerate(self.players):
            c, r = divmod(i, per_col)
            x, y = area.x + c * (cw + 2 * m.pad), area.y + r * (row_h + m.pad)
            col = colour_named(self.colours[i])
            sw = ui.button(
                pygame.Rect(x, y, sw_w, row_h),
                "",
                lambda i=i: self.next_colour(i),
                id=f"colour:{i}",
                colour=theme.PANEL_HI,
            )
            player_label(ui, (sw.rect.x + 10, sw.rect.centery), col.name, col, m.body, sw_w - 12)
            ui.button(
                pygame.Rect(x + sw_w + m.pad, y, cw - sw_w - m.pad, row_h),
                name,
                lambda i=i: self.rename(i),
                id=f"name:{i}",
                colour=theme.PANEL_HI,
            )

    def _option_block(self, ui: Ui, width: int, opt) -> tuple[list[str], int, int, int]:
        """How an option is laid out in ``width``: its description's lines (wrapped whole), the choices a
        row (as many as fit each label whole at 3 mm), the buttons' height and the block's height."""
        m = ui.metrics
        lines = ui.wrap(opt.description, m.small, width)
        n = len(opt.choices)
        labels = ["[x]\n" + str(c) for c in opt.choices]  # the widest a label gets: when chosen
        cols, need = 1, 1
        for c in range(n, 0, -1):
            bw = (width - (c - 1) * m.pad) // c
            counts = [lines_at_body(ui, label, bw - 12) for label in labels]
            if max(counts) <= 2:
                cols, need = c, max(counts)
                break
        bh = max(m.button_h, need * ui.font(m.body).get_linesize() + 8)
        rows = -(-n // cols)
        height = len(lines) * ui.font(m.small).get_linesize() + 4 + rows * (bh + m.pad) + m.pad
        return lines, cols, bh, height

    def _draw_options(self, ui: Ui, rect: pygame.Rect) -> None:
        """Each option: its description whole, its choices in rows of buttons whose labels are whole
        (a row of six cut 'chosen' to 'cho...' at 720x1280); options paged when they do not fit."""
        m = ui.metrics
        assert self.info is not None
        opts = self.info.options
        blocks = [self._option_block(ui, rect.width, opt) for opt in opts]
        starts, used = [0], 0
        room = rect.height - m.button_h - m.pad if sum(b[3] for b in blocks) > rect.height else rect.height
        for i, block in enumerate(blocks):
            if used + block[3] > room and used:
                starts.append(i)
                used = 0
            used += block[3]
        pages = len(starts)
        self.opt_page = min(self.opt_page, pages - 1)
        first = starts[self.opt_page]
        last = starts[self.opt_page + 1] if self.opt_page + 1 < pages else len(opts)
        y = rect.y
        line = ui.font(m.small).get_linesize()
        for opt, (lines, cols, bh, _) in zip(opts[first:last], blocks[first:last], strict=True):
            for text in lines:
                ui.text(text, (rect.x, y), m.small, theme.MUTED)
                y += line
            y += 4
            bw = (rect.width - (cols - 1) * m.pad) // cols
            for k, choice in enumerate(opt.choices):
                chosen = self.options.get(opt.key) == choice
                row, col = divmod(k, cols)
                ui.button(
                    pygame.Rect(rect.x + col * (bw + m.pad), y + row * (bh + m.pad), bw, bh),
                    ("[x]\n" if chosen else "") + str(choice),
                    lambda o=opt.key, c=choice: self.options.__setitem__(o, c),
                    id=f"option:{opt.key}={choice}",
                    selected=chosen,
                    colour=theme.GO if chosen else theme.BUTTON_OFF,
                )
            y += -(-len(opt.choices) // cols) * (bh + m.pad) + m.pad
        if pages > 1:
            ui.button(
                pygame.Rect(rect.x, rect.bottom - m.button_h, 200, m.button_h),
                "< Prev",
                lambda: setattr(self, "opt_page", self.opt_page - 1),
                enabled=self.opt_page > 0,
                id="opt:prev",
            )
            ui.button(
                pygame.Rect(rect.right - 200, rect.bottom - m.button_h, 200, m.button_h),
                "Next >",
                lambda: setattr(self, "opt_page", self.opt_page + 1),
                enabled=self.opt_page < pages - 1,
                id="opt:next",
            )
