"""The table: what the game asks now, the dice read from the tray (or entered by hand), the game's own
view with its legal moves, scores always in sight, undo, history and 'why not?'."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pygame

from companion.dice import die_kind
from companion.errors import CompanionError, RuleError
from companion.protocol import (
    ChooseMove,
    DieResult,
    DieSpec,
    Draw,
    DrawCards,
    GameOver,
    Move,
    Roll,
    RollDice,
    Source,
)
from companion.session import Game
from ui import theme
from ui.reader import UNSURE_STATUS, ReadResult, assign, needs_check
from ui.screen import Screen
from ui.screens.common import player_label, split_h, split_v
from ui.screens.overlays import FacePicker, MessageBox
from ui.theme import PlayerColour, colour_named
from ui.views import view_for
from ui.views.base import paged_buttons
from ui.widgets import Picture, Ui, draw_die, frame_surface

if TYPE_CHECKING:
    from ui.app import App

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Entry:
    """One die of the throw being entered."""

    face: str | None
    confidence: float = 1.0
    corrected: bool = False
    centre: tuple[float, float] | None = None
    status: str = "ok"  # as the reader said: ok, uncertain, crooked

    @property
    def unsure(self) -> bool:
        """Read by the camera but not to be trusted without a look (a person's entry always is)."""
        return self.face is not None and not self.corrected and needs_check(self.confidence, self.status)


def slot_name(slot: str, players: tuple[str, ...]) -> str:
    m = re.fullmatch(r"player(\d+)", slot)
    if m and 0 < int(m.group(1)) <= len(players):
        return players[int(m.group(1)) - 1]
    return slot


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _dice(n: int) -> str:
    return f"{n} die" if n == 1 else f"{n} dice"


class TableScreen(Screen):
    name = "table"

    def __init__(self, app: App, game_id: int, game: Game) -> None:
        super().__init__(app)
        self.gid = game_id
        self.game = game
        self.view = view_for(game.state.info)
        self.entries: dict[str, Entry] = {}
        self.read: ReadResult | None = None
        self.manual = not app.reader.live
        self.note = ""
        self._key: int = -1
        self._preview = Picture()
        self._frame: np.ndarray | None = None  # the newest camera frame (RGB)
        self._was_live = app.reader.live
        self._hand_chosen = False  # "By hand" pressed: the camera does not read this throw by itself
        self._asked = False  # Read tapped: the next read the reader offers answers it
        self.cards: list[int] = []  # indexes into a DrawCards request's candidates
        self.card_page = 0
        self._kinds: dict[str, str] = {}  # die kinds seen in requests, by slot (kept dice carry no kind)
        self._sync()

    # --- state tracking -----------------------------------------------------------------------
    def _sync(self) -> None:
        key = len(self.game.events)
        if key == self._key:
            return
        self._key = key
        self.view.reset()
        self.entries = {}
        self.read = None
        self.manual = not self.app.reader.live
        self._hand_chosen = False
        self._asked = False
        self.cards, self.card_page = [], 0
        self.app.reader.forget()  # a throw read (or being read) before this request is not its answer
        req = self.game.state.request()
        if isinstance(req, RollDice):
            self.entries = {d.slot: Entry(None) for d in req.dice}
            self._kinds.update({d.slot: d.kind for d in req.dice})
        if isinstance(req, GameOver):
            try:
                self.app.store.mark_finished(self.gid)
            except CompanionError as exc:
                log.warning("could not mark game %s finished: %s", self.gid, exc)
            self.app.beep("done")
            self.app.nav.end(self.gid, self.game)

    # --- TableActions for the views -----------------------------------------------------------
    def colour(self, player: int) -> PlayerColour:
        names = self.game.state.players
        chosen = self.app.settings.colours.get(names[player]) if player < len(names) else None
        return colour_named(chosen) if chosen else theme.PALETTE[player % len(theme.PALETTE)]

    def play(self, move: Move) -> bool:
        try:
            self.game.move(move)
        except RuleError as exc:
            self.app.beep("attention")
            self.app.show(MessageBox(self.app, "Why not?", exc.reason, exc.rule))
            return False
        self.note = ""
        self._sync()
        return True

    def why_not(self, move: Move) -> None:
        refused = self.game.state.refusal(move)
        if refused is None:
            self.app.message("That is allowed", f"{self.view.describe(move)} is a legal move now.")
            return
        self.app.beep("attention")
        self.app.show(MessageBox(self.app, "Why not?", refused.reason, refused.rule))

    def say(self, text: str) -> None:
        self.note = text

    # --- dice ---------------------------------------------------------------------------------
    def read_dice(self) -> None:
        """Read tapped: the reader starts reading; the result shows on a later frame (at once if the
        reader is quick), "Reading..." meanwhile."""
        req = self.game.state.request()
        if not isinstance(req, RollDice):
            return
        reader = self.app.reader
        try:
            reader.start_read(req.dice)
        except Exception as exc:  # a lost camera must not end the game
            log.warning("reading failed: %s", exc)
            self.manual = True
            self.note = f"The camera could not read ({exc}): enter the dice by hand."
            return
        self._hand_chosen = False
        self._asked = True
        if not reader.reading:
            self._offer(reader.settled(), req)

    def apply_read(self, result: ReadResult, req: RollDice) -> None:
        """Show a read (asked for, or a throw that just settled): each die placed on its slot."""
        self.read = result
        placed = assign(result.dice, req.dice)
        self.entries = {d.slot: Entry(None) for d in req.dice}
        for slot, d in placed.items():
            self.entries[slot] = Entry(d.face, d.confidence, False, d.centre, d.status)
        missing = [s for s, e in self.entries.items() if e.face is None]
        unsure = [s for s, e in self.entries.items() if e.unsure]
        players = self.game.state.players
        if result.message:
            self.note = result.message
        elif missing:
            self.note = f"{_dice(len(missing))} not read: tap to enter."
        elif unsure:
            which = ", ".join(
                slot_name(s, players) + f" ({UNSURE_STATUS.get(self.entries[s].status, 'unsure')})"
                for s in unsure
            )
            self.note = f"Look at {which}: marked CHECK. Tap to correct, then confirm."
        else:
            self.note = "Check the dice, then confirm."
        self.manual = False
        self.app.beep("ok" if not missing and not unsure else "attention")

    def _watch(self, req: object) -> None:
        """Once per frame: the newest camera frame, the camera coming and going, a throw that settled."""
        reader = self.app.reader
        self._frame = reader.preview()
        live = reader.live
        if live != self._was_live:
            self._was_live = live
            problem = getattr(reader, "problem", "")
            if not live:
                self.note = problem or "The camera is lost: enter the dice by hand."
                if self.read is None:
                    self.manual = True
                self.app.beep("attention")
            else:
                self.note = "The camera is back: throw the dice."
                if isinstance(req, RollDice) and not self._typed():
                    self.manual = False
        self._offer(reader.settled(), req)

    def _offer(self, result: ReadResult | None, req: object) -> None:
        """A finished read, offered once: the answer to Read, or a throw that settled by itself."""
        if result is None or not isinstance(req, RollDice):
            return
        if self._asked:
            self._asked = False
            self.apply_read(result, req)
            return
        if self.app.overlay is not None or self._typed() or self._hand_chosen:
            return  # a person's entries (or choice to enter by hand) are not overridden by the camera
        self.apply_read(result, req)

    def reading(self) -> bool:
        """A read is under way whose result this throw will take ("Reading..." on the table)."""
        if not self.app.reader.reading:
            return False
        return self._asked or not (self._typed() or self._hand_chosen)

    def _typed(self) -> bool:
        """Some face of this throw was given by a person (by hand, or a correction)."""
        return any(e.face is not None and (e.corrected or self.manual or self.read is None)
                   for e in self.entries.values())

    def by_hand(self) -> None:
        req = self.game.state.request()
        if isinstance(req, RollDice):
            self.entries = {d.slot: Entry(None) for d in req.dice}
        self.read = None
        self.manual = True
        self._hand_chosen = True
        self._asked = False  # a read still under way is not wanted now
        self.note = "Tap each die to enter its face."

    def pick(self, spec: DieSpec) -> None:
        entry = self.entries.get(spec.slot)

        def chosen(face: str) -> None:
            e = self.entries[spec.slot]
            # any face a person gives on top of a camera read is a correction of that read
            by_person = self.read is not None and not self.manual
            self.entries[spec.slot] = Entry(face, 1.0, by_person or e.corrected, e.centre)
            self._asked = False  # a read still under way does not overwrite what a person entered

        name = slot_name(spec.slot, self.game.state.players)
        self.app.show(
            FacePicker(
                self.app, f"Which face does {name} show?", spec.kind, chosen, entry.face if entry else None
            )
        )

    def complete(self) -> bool:
        return bool(self.entries) and all(e.face is not None for e in self.entries.values())

    def confirm(self) -> None:
        req = self.game.state.request()
        if not isinstance(req, RollDice) or not self.complete():
            return
        results = tuple(
            DieResult(d.slot, self.entries[d.slot].face or "", round(self.entries[d.slot].confidence, 3))
            for d in req.dice
        )
        if any(e.corrected for e in self.entries.values()):
            source = Source.CORRECTION
        elif self.read is None or self.manual:
            source = Source.MANUAL
        else:
            source = self.read.source
        evidence = self._save_evidence()
        try:
            self.game.roll(Roll(results, source), evidence)
        except RuleError as exc:
            self.app.beep("attention")
            self.app.show(MessageBox(self.app, "These dice do not fit", exc.reason, exc.rule))
            return
        self.note = ""
        self.app.beep("ok")
        self._sync()

    def _save_evidence(self) -> str | None:
        if self.app.evidence_dir is None or self.read is None or self.read.frame is None:
            return None
        path = Path(self.app.evidence_dir) / f"game{self.gid}-event{len(self.game.events)}.png"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            pygame.image.save(frame_surface(self.read.frame), str(path))
        except (OSError, pygame.error) as exc:
            log.warning("could not keep the photo %s: %s", path, exc)
            return None
        return str(path)

    # --- cards ---------------------------------------------------------------------------------
    def toggle_card(self, index: int, count: int) -> None:
        if index in self.cards:
            self.cards.remove(index)
        elif len(self.cards) < count:
            self.cards.append(index)
        else:
            self.note = f"{_cards(count)} already chosen: tap one to put it back."

    def random_cards(self) -> None:
        req = self.game.state.request()
        if isinstance(req, DrawCards):
            pool = list(range(len(req.candidates)))
            self.cards = self.app.rng.sample(pool, min(req.count, len(pool)))

    def confirm_cards(self) -> None:
        req = self.game.state.request()
        if not isinstance(req, DrawCards) or len(self.cards) != req.count:
            return
        simulated = getattr(self.app.reader, "simulated", False)
        draw = Draw(
            tuple(req.candidates[i] for i in self.cards), Source.SIMULATED if simulated else Source.MANUAL
        )
        try:
            self.game.draw(draw)
        except RuleError as exc:
            self.app.beep("attention")
            self.app.show(MessageBox(self.app, "These cards do not fit", exc.reason, exc.rule))
            return
        self.note = ""
        self._sync()

    def _draw_cards(self, ui: Ui, rect: pygame.Rect, req: DrawCards) -> None:
        m = ui.metrics
        ui.panel(rect, theme.PANEL)
        inner = rect.inflate(-2 * m.pad, -2 * m.pad)
        ui.text(
            f"Tap the {_cards(req.count)} turned up ({len(self.cards)} chosen)",
            inner.topleft,
            m.small,
            theme.MUTED,
            width=inner.width,
        )
        top = ui.font(m.small).get_linesize() + 4
        buttons_y = inner.bottom - m.button_h
        area = pygame.Rect(inner.x, inner.y + top, inner.width, buttons_y - inner.y - top - m.pad)
        cols = 2
        items = []
        for i, card in enumerate(req.candidates):
            mark = "[x] " if i in self.cards else ""
            items.append((mark + card, (lambda i=i: self.toggle_card(i, req.count)), f"card:{i}"))
        self.card_page = paged_buttons(
            ui, area, items, self.card_page, lambda p: setattr(self, "card_page", p), columns=cols
        )
        half = (inner.width - m.pad) // 2
        if getattr(self.app.reader, "simulated", False):
            ui.button(
                pygame.Rect(inner.x, buttons_y, half, m.button_h),
                "Random cards",
                self.random_cards,
                id="cards:random",
            )
        ui.button(
            pygame.Rect(inner.right - half, buttons_y, half, m.button_h),
            "Confirm cards",
            self.confirm_cards,
            id="cards:confirm",
            enabled=len(self.cards) == req.count,
            colour=(60, 130, 80),
        )

    # --- commands -----------------------------------------------------------------------------
    def undo(self) -> None:
        try:
            self.game.undo()
        except CompanionError as exc:
            self.app.message("Nothing to undo", str(exc))
            return
        self.note = "Undone."
        self._sync()

    def history(self) -> None:
        self.app.nav.history(self)

    def menu(self) -> None:
        self.app.nav.home()

    def on_button(self, name: str) -> None:
        req = self.game.state.request()
        if name == "undo":
            self.undo()
        elif name == "read" and isinstance(req, RollDice):
            if self.complete():
                self.confirm()
            elif self.app.reader.live:
                self.read_dice()

    def on_key(self, key: int) -> None:
        if key in (pygame.K_SPACE, pygame.K_RETURN):
            self.on_button("read")
        elif key in (pygame.K_BACKSPACE, pygame.K_u):
            self.undo()
        elif key == pygame.K_h:
            self.history()
        elif key == pygame.K_ESCAPE:
            self.menu()

    def back(self) -> None:
        self.menu()

    # --- drawing ------------------------------------------------------------------------------
    def draw(self, ui: Ui) -> None:
        self._sync()
        if self.app.screen is not self:
            return
        m = ui.metrics
        w, h = ui.size
        state = self.game.state
        req = state.request()
        self._watch(req)
        view = state.view()
        top_h = (m.button_h + 2 * m.pad) if not m.portrait else 150
        bottom_h = m.button_h + 2 * m.pad
        # prompt
        ui.panel(pygame.Rect(0, 0, w, top_h), theme.PANEL, radius=0)
        px = m.pad
        if req.player is not None:
            col = self.colour(req.player)
            cy = top_h // 2 if not m.portrait else m.pad + ui.font(m.prompt).get_linesize() // 2
            ui.shape(col.shape, (px + 14, cy), 14, col.rgb)
            px += 36
        ui.paragraph(
            req.prompt,
            pygame.Rect(px, m.pad, w - px - m.pad, top_h - 2 * m.pad),
            m.prompt,
            max_lines=1 if not m.portrait else 2,
        )
        # scores
        if m.portrait:
            rows = -(-len(state.players) // 2)
            scores_rect = pygame.Rect(m.pad, top_h + m.pad, w - 2 * m.pad, rows * 64 + 8)
            main = pygame.Rect(
                m.pad,
                scores_rect.bottom + m.pad,
                w - 2 * m.pad,
                h - bottom_h - scores_rect.bottom - 2 * m.pad,
            )
        else:
            scores_rect = pygame.Rect(w - 184 - m.pad, top_h + m.pad, 184, h - top_h - bottom_h - 2 * m.pad)
            main = pygame.Rect(m.pad, top_h + m.pad, scores_rect.x - 2 * m.pad, scores_rect.height)
        self._draw_scores(ui, scores_rect, view, req.player)
        # main area
        if isinstance(req, RollDice):  # the board stays in sight while the dice are entered
            if m.portrait:
                board, dice = split_v(main, int(main.height * 0.36), m.pad)
            else:
                board, dice = split_h(main, int(main.width * 0.34), m.pad)
            self.view.draw_board(ui, board, state, view, self)
            self._draw_dice(ui, dice, req)
        elif isinstance(req, DrawCards):
            if m.portrait:
                board, cards = split_v(main, int(main.height * 0.42), m.pad)
                self.view.draw_board(ui, board, state, view, self)
            else:
                cards = main
            self._draw_cards(ui, cards, req)
        elif isinstance(req, ChooseMove):
            moves = list(state.legal_moves())
            if m.portrait:
                board, choices = split_v(main, int(main.height * 0.55), m.pad)
            else:
                board, choices = split_h(main, main.width - 216 - m.pad, m.pad)
            self.view.draw_board(ui, board, state, view, self)
            self.view.draw_choices(ui, choices, state, moves, self)
        else:
            self.view.draw_board(ui, main, state, view, self)
        # bottom bar
        bar = pygame.Rect(0, h - bottom_h, w, bottom_h)
        ui.panel(bar, theme.PANEL, radius=0)
        bw = 150 if not m.portrait else 200
        y = bar.y + m.pad
        ui.button(pygame.Rect(m.pad, y, bw, m.button_h), "Menu", self.menu, id="table:menu")
        ui.button(
            pygame.Rect(2 * m.pad + bw, y, bw, m.button_h),
            "Undo",
            self.undo,
            id="table:undo",
            enabled=bool(self.game.actions()),
        )
        ui.button(
            pygame.Rect(3 * m.pad + 2 * bw, y, bw, m.button_h), "History", self.history, id="table:history"
        )
        if self.note and not m.portrait:
            ui.text(
                self.note,
                (4 * m.pad + 3 * bw, bar.centery),
                m.small,
                theme.ACCENT,
                "midleft",
                w - 5 * m.pad - 3 * bw,
            )
        elif self.note:  # under the prompt
            ui.text(self.note, (px, top_h - m.pad), m.small, theme.ACCENT, "bottomleft", w - px - m.pad)

    def _draw_scores(self, ui: Ui, rect: pygame.Rect, view: dict, current: int | None) -> None:
        m = ui.metrics
        ui.panel(rect, theme.PANEL)
        players = view["players"]
        scores = view["scores"]
        if m.portrait:
            cw, rh = (rect.width - m.pad) // 2, 64
            cells = [
                pygame.Rect(rect.x + (i % 2) * (cw + m.pad), rect.y + 4 + (i // 2) * rh, cw, rh - 4)
                for i in range(len(players))
            ]
        else:
            ui.text("Scores", (rect.x + m.pad, rect.y + 4), m.small, theme.MUTED)
            top = rect.y + 4 + ui.font(m.small).get_linesize()
            rh = min(76, (rect.bottom - top) // max(1, len(players)))
            cells = [
                pygame.Rect(rect.x + 4, top + i * rh, rect.width - 8, rh - 4) for i in range(len(players))
            ]
        for i, (name, cell) in enumerate(zip(players, cells, strict=True)):
            cur = i == current
            if cur:
                ui.panel(cell, theme.PANEL_HI, border=theme.ACCENT, width=2)
            score = scores[i]
            score_text = f"{score:g}"
            sw = ui.font(m.prompt).size(score_text)[0]
            line = ui.font(m.body).get_linesize()
            note = self.view.score_note(view, i)
            cy = cell.y + (line // 2 + 4 if note else cell.height // 2)
            player_label(ui, (cell.x + 6, cy), name, self.colour(i), m.body, cell.width - sw - 16, cur)
            ui.text(score_text, (cell.right - 6, cy), m.prompt, theme.TEXT, "midright")
            if note:
                ui.text(note, (cell.x + 8, cy + line // 2 + 2), m.small, theme.MUTED, width=cell.width - 12)

    def _draw_dice(self, ui: Ui, rect: pygame.Rect, req: RollDice) -> None:
        m = ui.metrics
        ui.panel(rect, theme.PANEL)
        inner = rect.inflate(-2 * m.pad, -2 * m.pad)
        buttons_y = inner.bottom - m.button_h
        work = pygame.Rect(inner.x, inner.y, inner.width, buttons_y - inner.y - m.pad)
        if m.portrait:
            cam, tiles = split_v(work, max(work.height // 3, work.height - 150 - m.pad), m.pad)
            self._draw_camera(ui, cam)
            self._draw_tiles(ui, tiles, req, list(req.dice) + list(req.kept))
        else:  # compact, beside the board: camera and kept dice above, the thrown dice in a row below
            top, tiles = split_v(work, int(work.height * 0.44), m.pad)
            cam, kept = split_h(top, min(top.width // 2, top.height * 4 // 3), m.pad)
            self._draw_camera(ui, cam)
            self._draw_kept(ui, kept, req)
            self._draw_tiles(ui, tiles, req, list(req.dice))
        # actions
        live = self.app.reader.live
        third = (inner.width - 2 * m.pad) // 3
        ui.button(
            pygame.Rect(inner.x, buttons_y, third, m.button_h),
            "Reading..." if self.reading() else "Read dice" if not self.read else "Read again",
            self.read_dice,
            id="dice:read",
            enabled=live,
            size=m.small if not m.portrait else None,
        )
        ui.button(
            pygame.Rect(inner.x + third + m.pad, buttons_y, third, m.button_h),
            "By hand",
            self.by_hand,
            id="dice:manual",
            size=m.small if not m.portrait else None,
        )
        done = self.complete()
        ui.button(
            pygame.Rect(inner.right - third, buttons_y, third, m.button_h),
            "Confirm",
            self.confirm,
            id="dice:confirm",
            enabled=done,
            colour=(60, 130, 80),
            size=m.small if not m.portrait else None,
        )

    def _draw_camera(self, ui: Ui, rect: pygame.Rect) -> None:
        m = ui.metrics
        pygame.draw.rect(ui.surface, (10, 10, 12), rect, border_radius=6)
        reader = self.app.reader
        frame = self.read.frame if self.read is not None else self._frame
        lost = "" if reader.live else (getattr(reader, "problem", "") or "No camera")
        if frame is None:
            msg = "No camera: tap each die to enter it" if not reader.live else "Waiting for the camera"
            ui.paragraph(msg, rect.inflate(-16, -16), m.small, theme.MUTED)
            return
        dst, scale = self._preview.draw(ui, rect, frame)
        if lost and self.read is None:  # the last picture, dimmed, under the news
            shade = pygame.Surface(dst.size, pygame.SRCALPHA)
            shade.fill((0, 0, 0, 170))
            ui.surface.blit(shade, dst)
            ui.paragraph("Camera lost: enter the dice by hand", dst.inflate(-8, -8), m.small, theme.WARN)
            return
        reading = self.reading()
        if reading:  # the read runs beside the drawing: say so over the picture
            ui.text("Reading...", (dst.x + 6, dst.y + 4), m.small, theme.ACCENT)
        if self.read is None:
            if not reading:
                ui.text("live", (dst.x + 6, dst.y + 4), m.small, theme.GOOD)
            return
        labels = scale >= 0.3  # a small photo carries the outlines only: the tiles say the faces
        for e in self.entries.values():
            if e.centre is None:
                continue
            x, y = dst.x + e.centre[0] * scale, dst.y + e.centre[1] * scale
            sure = not e.unsure
            col = theme.GOOD if sure else theme.WARN
            r = max(10, int(min(frame.shape[:2]) * 0.08 * scale))
            pygame.draw.rect(ui.surface, col, (x - r, y - r, 2 * r, 2 * r), 3 if sure else 5)
            if labels:
                label = (e.face or "?") + ("" if sure else " ?")
                ui.text(label, (x, y - r - 2), m.small, col, "midbottom")

    def _draw_kept(self, ui: Ui, rect: pygame.Rect, req: RollDice) -> None:
        """The dice kept from earlier throws, small, not tappable (landscape)."""
        if not req.kept:
            return
        m = ui.metrics
        ui.text(f"Kept: {_dice(len(req.kept))}", rect.topleft, m.small, theme.MUTED, width=rect.width)
        top = rect.y + ui.font(m.small).get_linesize() + 4
        side = max(24, min(44, rect.bottom - top))
        per_row = max(1, (rect.width + 4) // (side + 4))
        if len(req.kept) > per_row:  # two rows
            side = max(20, min(side, (rect.bottom - top - 4) // 2))
            per_row = max(1, (rect.width + 4) // (side + 4))
        for k, kept in enumerate(req.kept):
            r, c = divmod(k, per_row)
            die = pygame.Rect(rect.x + c * (side + 4), top + r * (side + 4), side, side)
            if die.bottom > rect.bottom:
                break
            kind = self._kept_kind(kept, req)
            face = die_kind(kind).face(kept.face)
            draw_die(ui, die, kind, kept.face, face.number)

    def _draw_tiles(self, ui: Ui, rect: pygame.Rect, req: RollDice, items: list) -> None:
        m = ui.metrics
        kinds = {d.slot: d.kind for d in req.dice}
        n = len(items)
        if m.portrait:
            cols = min(n, 6)
        else:  # one row when every tile stays a comfortable target, else two
            cols = n if (rect.width - (n - 1) * m.pad) // max(1, n) >= theme.MIN_TARGET else -(-n // 2)
            cols = max(1, cols)
        rows = -(-n // cols) if n else 1
        tw = (rect.width - (cols - 1) * m.pad) // max(1, cols)
        th = min((rect.height - (rows - 1) * m.pad) // rows, tw + 40)
        text_size = m.small if m.portrait or tw >= 80 else max(20, m.small - 4)
        line = ui.font(text_size).get_linesize()
        players = self.game.state.players
        for k, item in enumerate(items):
            r, c = divmod(k, cols)
            cell = pygame.Rect(rect.x + c * (tw + m.pad), rect.y + r * (th + m.pad), tw, th)
            side = max(26, min(cell.width - 12, cell.height - 2 * line - 10))  # a "?" stays readable
            if isinstance(item, DieSpec):
                e = self.entries.get(item.slot, Entry(None))
                ui.button(cell, "", lambda s=item: self.pick(s), id=f"die:{item.slot}", colour=theme.PANEL_HI)
                kind = kinds[item.slot]
                if e.face is None:
                    status, col = ("tap to enter" if tw >= 80 else "tap"), theme.MUTED
                elif e.corrected:
                    status, col = ("corrected" if tw >= 80 else "fixed"), theme.ACCENT
                elif self.manual or self.read is None:
                    status, col = ("by hand" if tw >= 80 else "hand"), theme.TEXT
                elif not e.unsure:
                    sure = f"{e.confidence:.0%}"
                    status, col = (f"{sure} sure" if tw >= 80 else sure), theme.GOOD
                else:
                    why = UNSURE_STATUS.get(e.status) or f"{e.confidence:.0%}"
                    status, col = (f"CHECK {why}" if tw >= 110 else "CHECK"), theme.WARN
                    pygame.draw.rect(ui.surface, theme.WARN, cell, 4, border_radius=8)
            else:
                kind, e = self._kept_kind(item, req), Entry(item.face)
                ui.panel(cell, theme.PANEL)
                status, col = "kept", theme.MUTED
            die = pygame.Rect(0, 0, side, side)
            die.midtop = (cell.centerx, cell.y + 4)
            face = die_kind(kind).face(e.face) if e.face is not None else None
            draw_die(ui, die, kind, e.face, face.number if face else None)
            ui.text(
                slot_name(item.slot, players),
                (cell.centerx, die.bottom + 2),
                text_size,
                theme.TEXT,
                "midtop",
                cell.width - 4,
            )
            ui.text(status, (cell.centerx, die.bottom + 2 + line), text_size, col, "midtop", cell.width - 4)

    def _kept_kind(self, kept: DieResult, req: RollDice) -> str:
        if kept.slot in self._kinds:
            return self._kinds[kept.slot]
        from companion.dice import all_kinds

        for kind in all_kinds().values():
            if kind.id.startswith(self.game.state.info.id) and kept.slot.split("-")[0] in kind.id:
                return kind.id
        for kind in all_kinds().values():
            if kept.face in kind.labels:
                return kind.id
        return "d6"
