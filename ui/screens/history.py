"""The game so far: each throw (with its photo when one was kept) and each move, newest first. Tap a die
of a throw to correct it: the record keeps the correction."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pygame

from companion.dice import all_kinds
from companion.errors import CompanionError, RuleError
from companion.protocol import DieResult, Roll, Source
from companion.record import MoveEvent, RollEvent
from ui import theme
from ui.screen import Screen
from ui.screens.common import header
from ui.screens.overlays import FacePicker, MessageBox
from ui.timeline import Step, timeline
from ui.views.base import slot_name
from ui.widgets import Ui, draw_die

log = logging.getLogger(__name__)


class HistoryScreen(Screen):
    name = "history"

    def __init__(self, app, table) -> None:
        super().__init__(app)
        self.table = table
        self.page = 0
        self._thumbs: dict[str, pygame.Surface | None] = {}
        self.refresh()

    def refresh(self) -> None:
        _, steps = timeline(self.table.game.events)
        self.steps: list[Step] = list(reversed(steps))

    def back(self) -> None:
        self.app.go(self.table)

    def kind_of(self, slot: str, face: str) -> str:
        known = self.table._kinds.get(slot)
        if known:
            return known
        for kind in all_kinds().values():
            if face in kind.labels and slot.split("-")[0] in kind.id:
                return kind.id
        return next((k.id for k in all_kinds().values() if face in k.labels), "d6")

    def correct(self, step: Step, slot: str) -> None:
        assert isinstance(step.action, RollEvent)
        event = step.action
        kind = self.kind_of(slot, event.roll.faces()[slot])
        name = slot_name(slot, self.table.game.state.players)

        def chosen(face: str) -> None:
            results = tuple(DieResult(r.slot, face, 1.0) if r.slot == slot else r for r in event.roll.results)
            try:
                self.table.game.amend(step.index, RollEvent(Roll(results, Source.CORRECTION), event.evidence))
            except RuleError as exc:
                self.app.show(MessageBox(self.app, "This correction does not fit", exc.reason, exc.rule))
                return
            except CompanionError as exc:
                self.app.message("Could not correct", str(exc))
                return
            self.refresh()
            self.app.message("Corrected", f"{name} now shows {face}; the game was replayed from that throw.")

        title = f"Correct {name} (throw #{step.index})"
        self.app.show(FacePicker(self.app, title, kind, chosen, event.roll.faces()[slot]))

    def thumb(self, path: str | None) -> pygame.Surface | None:
        if not path:
            return None
        if path not in self._thumbs:
            try:
                img = pygame.image.load(path) if Path(path).is_file() else None
                self._thumbs[path] = pygame.transform.smoothscale(img, (80, 60)) if img else None
            except pygame.error:
                self._thumbs[path] = None
        return self._thumbs[path]

    def draw(self, ui: Ui) -> None:
        m = ui.metrics
        area = header(ui, "History", self.back, "< Table")
        # a line of words, then a row of dice each a 9 mm target
        row_h = max(m.button_h + 2 * m.pad, ui.font(m.small).get_linesize() + m.target + 8 + m.pad)
        rows = max(1, (area.height - m.button_h - m.pad) // row_h)
        pages = max(1, -(-len(self.steps) // rows))
        self.page = min(self.page, pages - 1)
        players = self.table.game.state.players
        if not self.steps:
            ui.text("Nothing played yet", area.topleft, m.body, theme.MUTED)
        for k, step in enumerate(self.steps[self.page * rows : (self.page + 1) * rows]):
            r = pygame.Rect(area.x, area.y + k * row_h, area.width, row_h - m.pad)
            ui.panel(r, theme.PANEL)
            who = players[step.player] if step.player is not None and step.player < len(players) else "Table"
            # what the table asked: whole, else without its parentheses, smaller before it is cut
            plain, shorter = step.prompt, ""
            while shorter != plain:  # parentheses inside parentheses: the innermost first
                shorter, plain = plain, re.sub(r" ?[(][^()]*[)]", "", plain)
            asked = (f"#{step.index}  {step.prompt}", f"#{step.index}  {plain}")
            fits = [(t, z) for z in (m.small, m.tiny) for t in asked
                    if ui.font(z).size(t)[0] <= r.width - 2 * m.pad]
            text, size = fits[0] if fits else (asked[-1], m.tiny)
            ui.text(text, (r.x + m.pad, r.y + 4), size, theme.MUTED, width=r.width - 2 * m.pad)
            y = r.y + 4 + ui.font(m.small).get_linesize()
            x = r.x + m.pad
            if isinstance(step.action, RollEvent):
                roll = step.action.roll
                thumb = self.thumb(step.action.evidence)
                if thumb is not None:
                    ui.surface.blit(thumb, (r.right - 88, r.y + 4))
                side = m.target
                for res in roll.results:
                    die = pygame.Rect(x, y, side, side)
                    w = ui.button(
                        die,
                        "",
                        lambda s=step, slot=res.slot: self.correct(s, slot),
                        id=f"fix:{step.index}:{res.slot}",
                        colour=theme.PANEL,
                    )
                    draw_die(ui, w.rect.inflate(-6, -6), self.kind_of(res.slot, res.face), res.face)
                    x = w.rect.right + 6
                src = {Source.CORRECTION: "corrected"}.get(roll.source, str(roll.source))
                room = r.right - x - (100 if thumb is not None else 6 + m.pad)
                # the fullest note that fits whole beside the dice (none rather than one cut short)
                note = ui.words_that_fit(
                    (f"({src}; tap a die to correct)", f"({src}; tap to correct)", f"({src})", ""),
                    m.small,
                    room,
                )
                ui.text(note, (x + 6, y + side // 2), m.small, theme.MUTED, "midleft", room)
            elif isinstance(step.action, MoveEvent):
                try:
                    text = self.table.view.describe(self.table.game.state.parse_move(step.action.move))
                except CompanionError:
                    text = step.action.move
                band = pygame.Rect(x, y + 2, r.width - 2 * m.pad, r.bottom - y - 4)
                ui.paragraph_fit(f"{who}: {text}", band, (m.body, m.small))  # wrapped smaller, never cut
            else:  # the cards by their printed names, wrapped smaller rather than cut
                names = ", ".join(self.table.view.card_name("", c) for c in step.action.draw.cards)
                band = pygame.Rect(x, y + 2, r.width - 2 * m.pad, r.bottom - y - 4)
                ui.paragraph_fit(f"{who}: cards {names}", band, (m.body, m.small), theme.TEXT)
        if pages > 1:
            y = area.bottom - m.button_h
            ui.button(
                pygame.Rect(area.x, y, 200, m.button_h),
                "< Newer",
                lambda: setattr(self, "page", self.page - 1),
                enabled=self.page > 0,
                id="history:newer",
            )
            ui.text(
                f"page {self.page + 1} of {pages}",
                (area.centerx, y + m.button_h // 2),
                m.small,
                theme.MUTED,
                "center",
            )
            ui.button(
                pygame.Rect(area.right - 200, y, 200, m.button_h),
                "Older >",
                lambda: setattr(self, "page", self.page + 1),
                enabled=self.page < pages - 1,
                id="history:older",
            )
