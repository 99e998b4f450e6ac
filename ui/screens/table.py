"""The table: what the game asks now, the dice read from the tray (or entered by hand), the game's own
view with its legal moves, scores always in sight, undo, history and 'why not?'."""

from __future__ import annotations

import logging
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
from companion.record import DrawEvent, MoveEvent, RollEvent
from companion.session import Game
from ui import theme
from ui.coach_panel import CoachPanel
from ui.reader import UNSURE_STATUS, ReadResult, assign, needs_check
from ui.screen import Screen
from ui.screens.common import player_label
from ui.screens.overlays import FacePicker, MessageBox
from ui.screens.table_cards import copies, draw_picker, tap_card
from ui.screens.table_cards import need as card_room
from ui.screens.table_cues import AutoConfirm, TurnCue
from ui.screens.table_last import LastMove
from ui.screens.table_layout import TableLayout, score_columns, table_layout, with_side
from ui.theme import PlayerColour, colour_named
from ui.views import view_for
from ui.views.base import grid_page, paged_buttons, slot_name
from ui.watch_state import draw_watch_state, watch_state
from ui.widgets import Picture, Ui, draw_die, frame_surface

if TYPE_CHECKING:
    from ui.app import App

log = logging.getLogger(__name__)


def one_line(ui: Ui, wordings: tuple[str, ...], width: int) -> tuple[str, int]:
    """A button's words on one line of ``width``: the fullest wording that fits at the body size (3 mm),
    else the shortest at the label size (a narrow button at 800x480)."""
    m = ui.metrics
    font = ui.font(m.body)
    fits = [w for w in wordings if font.size(w)[0] <= width]
    return (fits[0], m.body) if fits else (wordings[-1], m.small)


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
        self.watch_band: pygame.Rect | None = None  # where the watcher's state was drawn (ui.watch_state)
        self._hand_chosen = False  # "By hand" pressed: the camera does not read this throw by itself
        self._asked = False  # Read tapped: the next read the reader offers answers it
        self.cards: list[int] = []  # indexes into a DrawCards request's candidates
        self.card_page = 0
        self._kinds: dict[str, str] = {}  # die kinds seen in requests, by slot (kept dice carry no kind)
        self.coach = CoachPanel()  # the odds of each choice (ui/coach_panel.py): off by default
        self.turn_cue = TurnCue()
        self.auto = AutoConfirm()
        self.layout: TableLayout | None = None
        self.last = LastMove()  # the last move outlined on the board (ui/screens/table_last.py)
        self._sync()

    # --- state tracking -----------------------------------------------------------------------
    def _sync(self) -> None:
        key = len(self.game.events)
        if key == self._key:
            return
        self._key = key
        self.last.track(self.game.events, self.game.state, self.view.rolls_settle_moves)
        self.view.reset()
        self.entries = {}
        self.read = None
        self.manual = not self.app.reader.live
        self._hand_chosen = False
        self._asked = False
        self.cards, self.card_page = [], 0
        self.auto.reset()
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
        self.auto.reset()  # a new read counts down afresh
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
    def tap_card(self, copies: list[int], count: int) -> None:
        """A card's picture or name tapped (``copies``: the indexes of that card among the candidates)."""
        chosen = tap_card(self.cards, copies, count)
        if chosen is None:
            self.note = f"{_cards(count)} already chosen: tap one to put it back."
        else:
            self.cards = chosen

    def random_cards(self) -> None:
        req = self.game.state.request()
        if isinstance(req, DrawCards):
            self.cards = self.app.reader.random_cards(len(req.candidates), req.count)

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
        if self.view.draws_cards(req.deck):  # every card at once, as a picture (ui/screens/table_cards.py)
            simulated = getattr(self.app.reader, "simulated", False)
            draw_picker(ui, rect, self.view, req.deck, req.candidates, self.cards, req.count,
                        lambda copies: self.tap_card(copies, req.count), self.confirm_cards,
                        self.random_cards if simulated else None)
            return
        ui.panel(rect, theme.PANEL)
        inner = rect.inflate(-2 * m.pad, -2 * m.pad)
        items = []
        # a button per distinct card (a deck holding four Fore! cards lists it once), by the name printed
        # on it; "[x]" when chosen, with how many copies when more than one
        for card, indexes in copies(req.candidates):
            n = sum(i in self.cards for i in indexes)
            mark = "" if not n else "[x]\n" if n == 1 else f"[x] {n}\n"
            name = self.view.card_name(req.deck, card)
            tap = lambda ix=indexes: self.tap_card(ix, req.count)  # noqa: E731
            items.append((mark + name, tap, f"card:{indexes[0]}"))
        ask = f"Tap the {_cards(req.count)} turned up ({len(self.cards)} chosen)"
        simulated = getattr(self.app.reader, "simulated", False)
        if m.portrait:  # the paging arrows share the Random and Confirm row: a row more of cards
            self._card_rows(ui, inner, ask, items, simulated, len(self.cards) == req.count)
            return
        top = ui.paragraph(ask, inner, m.small, theme.MUTED, max_lines=2) + 4  # wrapped, not cut (defect 6)
        buttons_y = inner.bottom - m.button_h
        area = pygame.Rect(inner.x, inner.y + top, inner.width, buttons_y - inner.y - top - m.pad)
        self.card_page = paged_buttons(
            ui, area, items, self.card_page, lambda p: setattr(self, "card_page", p)
        )
        half = (inner.width - m.pad) // 2
        ok = pygame.Rect(inner.right - half, buttons_y, half, m.button_h)
        if simulated:
            rand = pygame.Rect(inner.x, buttons_y, half, m.button_h)
            words, size = one_line(ui, ("Random cards", "Random"), half - 12)
            ui.button(rand, words, self.random_cards, id="cards:random", size=size)
        words, size = one_line(ui, ("Confirm cards", "Confirm"), half - 12)
        ui.button(ok, words, self.confirm_cards, id="cards:confirm", enabled=len(self.cards) == req.count,
                  colour=theme.CONFIRM, size=size)

    def _card_rows(
        self, ui: Ui, inner: pygame.Rect, ask: str, items: list, simulated: bool, ready: bool
    ) -> None:
        """Portrait: the cards by name in rows, under ``ask`` (with the page when paged), and one row of
        ``<``, Random, Confirm and ``>`` (the arrows only when paged)."""
        m = ui.metrics
        worst = f"{ask}, page 9 of 9"  # the room the words may take, paged or not
        top = min(2, len(ui.wrap(worst, m.small, inner.width))) * ui.font(m.small).get_linesize() + 4
        row = pygame.Rect(inner.x, inner.bottom - m.button_h, inner.width, m.button_h)
        grid = pygame.Rect(inner.x, inner.y + top, inner.width, row.y - m.pad - inner.y - top)
        self.card_page, pages = grid_page(ui, grid, items, self.card_page)
        page = self.card_page
        ui.paragraph(ask + (f", page {page + 1} of {pages}" if pages > 1 else ""), inner, m.small,
                     theme.MUTED, max_lines=2)
        if pages > 1:
            t = m.target
            ui.button(pygame.Rect(row.x, row.y, t, row.height), "<",
                      lambda: setattr(self, "card_page", page - 1), enabled=page > 0, id="page:prev")
            ui.button(pygame.Rect(row.right - t, row.y, t, row.height), ">",
                      lambda: setattr(self, "card_page", page + 1), enabled=page < pages - 1, id="page:next")
            row = row.inflate(-2 * (t + m.pad), 0)
        half = (row.width - m.pad) // 2
        ok = pygame.Rect(row.right - half, row.y, half, row.height) if simulated else row
        if simulated:
            rand = pygame.Rect(row.x, row.y, half, row.height)
            words, size = one_line(ui, ("Random cards", "Random"), half - 12)
            ui.button(rand, words, self.random_cards, id="cards:random", size=size)
        words, size = one_line(ui, ("Confirm cards", "Confirm"), ok.width - 12)
        ui.button(ok, words, self.confirm_cards, id="cards:confirm", enabled=ready, colour=theme.CONFIRM,
                  size=size)

    # --- commands -----------------------------------------------------------------------------
    def undo(self) -> None:
        """Take back the last action; the note names what was taken back."""
        actions = self.game.actions()
        what = self.taken_back(actions[-1][1]) if actions else ""
        try:
            self.game.undo()
        except CompanionError as exc:
            self.app.message("Nothing to undo", str(exc))
            return
        self._sync()
        self.note = f"Undone: {what}." if what else "Undone."

    def taken_back(self, action: object) -> str:
        """An action in words, as the undo note names it."""
        players = self.game.state.players
        if isinstance(action, RollEvent):
            faces = " ".join(r.face for r in action.roll.results)
            return f"the throw {faces}"
        if isinstance(action, DrawEvent):
            return f"the cards {', '.join(action.draw.cards)}"
        if isinstance(action, MoveEvent):
            who = players[action.player] if 0 <= action.player < len(players) else "a player"
            try:
                words = self.view.describe(self.game.state.parse_move(action.move))
            except (CompanionError, ValueError):  # a wording the game no longer parses: as written
                words = action.move
            return f"{who}'s move, {words}"
        return ""

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
        state = self.game.state
        req = state.request()
        self._watch(req)
        view = state.view()
        prompt_h = 2 * ui.font(m.prompt).get_linesize() + self._note_h(ui) + 2 * m.pad
        lay = table_layout(ui.size, m, len(state.players), self._score_row(ui), prompt_h)
        lay = with_side(lay, m, height=self.view.side_height(ui, state))  # a view's 9 mm rows
        self._draw_prompt(ui, lay.prompt, req)
        self._draw_scores(ui, lay.scores, view, req.player)
        # the board keeps its place whatever is asked; the side panel holds what is asked
        if isinstance(req, RollDice):
            self.view.draw_board(ui, lay.board, state, view, self)
            self._draw_dice(ui, lay.side, req)
        elif isinstance(req, DrawCards):
            if self.view.draws_cards(req.deck):
                lay = card_room(m, len(copies(req.candidates)), lay)
            self.view.draw_board(ui, lay.board, state, view, self)
            self._draw_cards(ui, lay.side, req)
        elif isinstance(req, ChooseMove):
            self.view.draw_board(ui, lay.board, state, view, self)
            self.view.draw_choices(ui, lay.side, state, list(state.legal_moves()), self)
        else:
            self.view.draw_board(ui, lay.board.union(lay.side), state, view, self)
        self.last.draw(ui, lay.board, state, self, lambda p: self.colour(p).rgb)
        self.layout = lay  # where this frame put things (tests measure them)
        self.coach.draw(ui, lay.board, state, len(self.game.events), self.view)  # over the board, when on
        self._draw_bar(ui, lay)
        self._draw_cues(ui, lay, req)

    def _draw_cues(self, ui: Ui, lay: TableLayout, req: object) -> None:
        """Laid over the scores: the turn passing to another player, in their colour, for a moment."""
        player = getattr(req, "player", None)
        self.turn_cue.update(player)
        if player is not None:
            name = self.game.state.players[player]
            self.turn_cue.draw(ui, lay.scores, name, self.colour(player))

    def _draw_bar(self, ui: Ui, lay: TableLayout) -> None:
        """Menu, Undo, History, Coach; the note (what to do now) beside them, wrapped, never cut short."""
        m = ui.metrics
        bar = lay.bar
        ui.panel(bar, theme.PANEL, radius=0)
        labels = ("Menu", "Undo", "History")
        bw = max(ui.font(m.body).size(t)[0] for t in labels) + 32
        cw = ui.font(m.body).size("Coach")[0] + 32
        w = bar.width
        y = bar.y + m.pad
        ui.button(pygame.Rect(w - m.pad - cw, y, cw, m.button_h), "Coach", self.coach.toggle,
                  id="table:coach", selected=self.coach.on)  # the odds (ui/coach_panel.py): off by default
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
        if not self.note:
            return
        if m.portrait:  # under the prompt, in the room the prompt bar keeps for it
            nh = self._note_h(ui)
            room = pygame.Rect(m.pad, lay.prompt.bottom - nh - m.pad // 2, bar.width - 2 * m.pad, nh)
        else:
            x = 4 * m.pad + 3 * bw
            room = pygame.Rect(x, bar.y + 4, bar.right - 2 * m.pad - cw - x, bar.height - 8)
        ui.paragraph_fit(self.note, room, (m.small, m.tiny), theme.ACCENT, "center")

    def _note_h(self, ui: Ui) -> int:
        """Portrait: two lines of the note under the prompt."""
        return 2 * ui.font(ui.metrics.small).get_linesize()

    def _draw_prompt(self, ui: Ui, rect: pygame.Rect, req: object) -> None:
        """What the table asks now, by whom (their shape in their colour), wrapped to the bar."""
        m = ui.metrics
        ui.panel(rect, theme.PANEL, radius=0)
        px = m.pad
        player = getattr(req, "player", None)
        if player is not None:
            col = self.colour(player)
            cy = rect.height // 2 if not m.portrait else m.pad + ui.font(m.prompt).get_linesize() // 2
            ui.shape(col.shape, (px + 14, cy), 14, col.rgb)
            px += 36
        high = rect.height - 2 * m.pad - (self._note_h(ui) if m.portrait else 0)
        box = pygame.Rect(px, m.pad, rect.width - px - m.pad, high)
        ui.paragraph_fit(getattr(req, "prompt", ""), box, (m.prompt, m.body), theme.TEXT, "center")

    def _score_row(self, ui: Ui) -> int:
        m = ui.metrics
        return ui.font(m.body).get_linesize() + ui.font(m.small).get_linesize() + 8

    def _draw_scores(self, ui: Ui, rect: pygame.Rect, view: dict, current: int | None) -> None:
        """Every player's name (shape in colour) and score, with the view's note under it."""
        m = ui.metrics
        ui.panel(rect, theme.PANEL)
        players = view["players"]
        scores = view["scores"]
        n = len(players)
        if m.portrait:
            cols = score_columns(n)
            cw = (rect.width - 8 - (cols - 1) * 4) // cols
            rh = self._score_row(ui)
            cells = [
                pygame.Rect(rect.x + 4 + (i % cols) * (cw + 4), rect.y + 4 + (i // cols) * rh, cw, rh - 4)
                for i in range(n)
            ]
        else:
            ui.text("Scores", (rect.x + m.pad, rect.y + 4), m.small, theme.MUTED)
            top = rect.y + 4 + ui.font(m.small).get_linesize()
            rh = min(self._score_row(ui), (rect.bottom - top) // max(1, n))
            cells = [pygame.Rect(rect.x + 4, top + i * rh, rect.width - 8, rh - 2) for i in range(n)]
        line = ui.font(m.body).get_linesize()
        for i, (name, cell) in enumerate(zip(players, cells, strict=True)):
            cur = i == current
            if cur:
                ui.panel(cell, theme.PANEL_HI, border=theme.ACCENT, width=2)
            score_text = f"{scores[i]:g}"
            sw = ui.font(m.body).size(score_text)[0]
            note = self.view.score_note(view, i)
            roomy = cell.height >= line + ui.font(m.small).get_linesize()
            cy = cell.y + 2 + line // 2 if note and roomy else cell.centery
            player_label(ui, (cell.x + 6, cy), name, self.colour(i), m.body, cell.width - sw - 16, cur)
            ui.text(score_text, (cell.right - 6, cy), m.body, theme.TEXT, "midright")
            if note and roomy:
                if not isinstance(note, str):  # wordings, fullest first: the first that fits whole
                    note = ui.words_that_fit(note, m.small, cell.width - 12)
                ui.text(note, (cell.x + 8, cy + line // 2), m.small, theme.MUTED, width=cell.width - 12)

    def sure_read(self) -> bool:
        """Every die read by the camera and sure, none entered or corrected by a person."""
        return (
            self.read is not None
            and not self.manual
            and self.complete()
            and not any(e.unsure or e.corrected for e in self.entries.values())
        )

    def _confirm_label(self) -> str:
        return f"Confirming in {self.auto.left}" if self.auto.started is not None else "Confirm"

    def _draw_dice(self, ui: Ui, rect: pygame.Rect, req: RollDice) -> None:
        """The side panel while dice are entered: the camera's picture with Read and By hand beside it,
        a tile per die (tap to enter or correct), Confirm across the bottom. With auto-confirm on, a
        sure read counts down on the Confirm button; Cancel (in place of Read) stops it."""
        m = ui.metrics
        if self.auto.tick(self.app.settings.auto_confirm and self.sure_read() and self.app.overlay is None):
            self.confirm()
            return
        ui.panel(rect, theme.PANEL)
        inner = rect.inflate(-2 * m.pad, -2 * m.pad)
        if m.portrait:
            self._draw_dice_wide(ui, inner, req)
            return
        bh = m.target
        confirm = pygame.Rect(inner.x, inner.bottom - bh, inner.width, bh)
        top_h = 2 * bh + m.pad
        widest = max(ui.font(m.small).size(t)[0] for t in ("Reading...", "Read again", "By hand"))
        bw = min((inner.width - m.pad) // 2, widest + 16)
        cam = pygame.Rect(inner.x, inner.y, inner.width - bw - m.pad, top_h)
        self._draw_camera(ui, cam)
        self._read_button(ui, pygame.Rect(cam.right + m.pad, inner.y, bw, bh), m.small)
        ui.button(
            pygame.Rect(cam.right + m.pad, inner.y + bh + m.pad, bw, bh),
            "By hand",
            self.by_hand,
            id="dice:manual",
            size=m.small,
        )
        tiles = pygame.Rect(
            inner.x, cam.bottom + m.pad, inner.width, confirm.y - cam.bottom - 2 * m.pad
        )
        self._draw_tiles(ui, tiles, req, list(req.dice))
        done = self.complete()
        label = self._confirm_label()
        ui.button(confirm, label, self.confirm, id="dice:confirm", enabled=done, colour=theme.CONFIRM)

    def _read_button(self, ui: Ui, rect: pygame.Rect, size: int) -> None:
        """Read dice (Read again once read, Reading... while it runs); Cancel while an auto-confirm
        counts down."""
        if self.auto.started is not None:
            ui.button(rect, "Cancel", self.auto.cancel, id="dice:cancel", size=size, colour=theme.CANCEL)
            return
        label = "Reading..." if self.reading() else "Read again" if self.read else "Read dice"
        ui.button(rect, label, self.read_dice, id="dice:read", enabled=self.app.reader.live, size=size)

    def _draw_dice_wide(self, ui: Ui, inner: pygame.Rect, req: RollDice) -> None:
        """Portrait: the camera's picture beside the tiles, the three buttons in a row under them."""
        m = ui.metrics
        bh = m.button_h
        row = pygame.Rect(inner.x, inner.bottom - bh, inner.width, bh)
        work = pygame.Rect(inner.x, inner.y, inner.width, row.y - m.pad - inner.y)
        cam = pygame.Rect(work.x, work.y, min(work.width // 3, work.height * 4 // 3), work.height)
        self._draw_camera(ui, cam)
        tiles = pygame.Rect(cam.right + m.pad, work.y, work.right - cam.right - m.pad, work.height)
        self._draw_tiles(ui, tiles, req, list(req.dice))
        third = (inner.width - 2 * m.pad) // 3
        self._read_button(ui, pygame.Rect(row.x, row.y, third, bh), m.body)
        hand = pygame.Rect(row.x + third + m.pad, row.y, third, bh)
        ui.button(hand, "By hand", self.by_hand, id="dice:manual")
        done = self.complete()
        ui.button(
            pygame.Rect(row.right - third, row.y, third, bh),
            self._confirm_label(),
            self.confirm,
            id="dice:confirm",
            enabled=done,
            colour=theme.CONFIRM,
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
        self.watch_band = draw_watch_state(ui, dst, None if lost else watch_state(reader))
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
                ui.text(label, (x, y - r - 2), m.small, col, "midbottom", within=dst)

    def _draw_tiles(self, ui: Ui, rect: pygame.Rect, req: RollDice, items: list) -> None:
        """A tile per die: its picture and one word of status; columns chosen for the largest dice."""
        m = ui.metrics
        kinds = {d.slot: d.kind for d in req.dice}
        n = max(1, len(items))
        text_size = m.small
        line = ui.font(text_size).get_linesize()
        best = (0, 1)
        for cols in range(1, n + 1):
            rows = -(-n // cols)
            tw = (rect.width - (cols - 1) * m.pad) // cols
            th = (rect.height - (rows - 1) * m.pad) // rows
            if tw < m.target or th < m.target:
                continue
            side = min(tw - 8, th - line - 8)
            best = max(best, (side, cols))
        cols = best[1] if best[0] > 0 else n
        rows = -(-n // cols)
        tw = (rect.width - (cols - 1) * m.pad) // cols
        th = (rect.height - (rows - 1) * m.pad) // rows
        side = max(16, min(tw - 8, th - line - 8))
        for k, item in enumerate(items):
            r, c = divmod(k, cols)
            cell = pygame.Rect(rect.x + c * (tw + m.pad), rect.y + r * (th + m.pad), tw, th)
            e = self.entries.get(item.slot, Entry(None))
            ui.button(cell, "", lambda s=item: self.pick(s), id=f"die:{item.slot}", colour=theme.PANEL_HI)
            kind = kinds[item.slot]
            status, col = self._status(e, ui, text_size, tw - 4)
            if e.unsure:
                pygame.draw.rect(ui.surface, theme.WARN, cell, 4, border_radius=8)
            die = pygame.Rect(0, 0, side, side)
            die.midtop = (cell.centerx, cell.y + 4)
            face = die_kind(kind).face(e.face) if e.face is not None else None
            draw_die(ui, die, kind, e.face, face.number if face else None)
            ui.text(status, (cell.centerx, die.bottom + 2), text_size, col, "midtop")

    def _status(self, e: Entry, ui: Ui, size: int, width: int) -> tuple[str, tuple[int, int, int]]:
        """One word or two under a die: the longest wording that fits the tile, never cut."""
        if e.face is None:
            words, col = ("tap to enter", "tap"), theme.MUTED
        elif e.corrected:
            words, col = ("corrected", "fixed"), theme.ACCENT
        elif self.manual or self.read is None:
            words, col = ("by hand", "hand"), theme.TEXT
        elif not e.unsure:
            sure = f"{e.confidence:.0%}"
            words, col = (f"{sure} sure", sure), theme.GOOD
        else:
            why = UNSURE_STATUS.get(e.status) or f"{e.confidence:.0%}"
            words, col = (f"CHECK {why}", "CHECK", "?"), theme.WARN
        font = ui.font(size)
        return next((w for w in words if font.size(w)[0] <= width), words[-1]), col
