"""Roll For It!: the face-up cards with their dice images and points, the dice of every colour placed
on those images (each marked with its colour's letter), every player's dice in hand and score pile, and
the unplaced dice of the current roll. Tap a rolled die, then an image on a card, to build a
placement; Play places it. The engine's ranked hints are offered as one-tap suggestions; at the start
of a turn, Roll and Take Back."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pygame

from companion.errors import RuleError
from companion.games.roll_for_it import Place, RollOn, TakeBack
from companion.games.roll_for_it_cards import card as parse_card
from companion.protocol import GameState, Move
from ui import theme
from ui.views.base import Finger, GameView, TableActions, paged_buttons
from ui.widgets import PIPS, Ui, Widget

DIE_RGB: dict[str, tuple[int, int, int]] = {
    "red": (205, 55, 55),
    "blue": (55, 105, 215),
    "green": (55, 155, 75),
    "yellow": (235, 200, 45),
    "purple": (145, 85, 200),
    "orange": (240, 135, 35),
    "black": (22, 22, 26),
    "white": (240, 240, 232),
}
LETTER = {
    "red": "R",
    "blue": "B",
    "green": "G",
    "yellow": "Y",
    "purple": "P",
    "orange": "O",
    "black": "K",
    "white": "W",
}
IMAGE_FILL = (236, 232, 218)  # the printed die images on a card
CARD_FILL = (70, 84, 110)
CARD_EDGE = (150, 160, 180)


def letter(colour: str) -> str:
    return LETTER.get(colour, colour[:1].upper())


def ink(colour: str) -> tuple[int, int, int]:
    """Text and pip colour on a die of ``colour``: black or white, whichever stands out more."""
    r, g, b = (c / 255 for c in DIE_RGB.get(colour, (128, 128, 128)))
    lum = 0.2126 * r**2.2 + 0.7152 * g**2.2 + 0.0722 * b**2.2  # near enough to WCAG's luminance
    return (20, 20, 20) if (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) else (250, 250, 250)


def placement_phrases(move: Place) -> tuple[str, ...]:
    """The dice a placement puts on each card, a phrase per card ("#2" as on the card)."""
    if not move.cards:
        return ("Place nothing",)
    words = [f"#{pos}: {', '.join(faces)}" for pos, faces in move.cards]
    return (*(w + ";" for w in words[:-1]), words[-1])


def placement_words(move: Place) -> str:
    return " ".join(placement_phrases(move))


class RollForItView(GameView):
    def __init__(self, info) -> None:
        super().__init__(info)
        self.assigned: dict[int, int] = {}  # index into the rolled dice -> card position
        self.selected: int | None = None
        self._hints: tuple[tuple, list] = ((), [])
        self._legal: tuple[tuple, bool] = ((), False)
        self.needs: dict[int, str] = {}  # per card position: what the player still lacks to score it

    def reset(self) -> None:
        super().reset()
        self.assigned = {}
        self.selected = None

    # --- words --------------------------------------------------------------------------------
    def describe(self, move: Move) -> str:
        if isinstance(move, RollOn):
            return "Roll"
        if isinstance(move, TakeBack):
            return "Take Back"
        if isinstance(move, Place):
            return placement_words(move)
        return str(move)

    def phrases(self, move: Move) -> tuple[str, ...]:
        return placement_phrases(move) if isinstance(move, Place) else (self.describe(move),)

    def score_note(self, view: dict[str, Any], player: int) -> str | tuple[str, ...]:
        colours, hands = view.get("colours", []), view.get("dice_in_hand", [])
        if player >= len(colours) or player >= len(hands):
            return ""
        c, n = colours[player], hands[player]
        return f"{c} dice, {n} in hand", f"{n} {c} in hand", f"{n} {c} dice", f"{n} {c}"

    # --- the placement being built --------------------------------------------------------------
    def pending(self, rolled: Sequence[int]) -> Place:
        by_card: dict[int, list[int]] = {}
        for i, pos in self.assigned.items():
            if i < len(rolled):
                by_card.setdefault(pos, []).append(rolled[i])
        return Place.of(by_card)

    def _valid(self, state: GameState) -> None:
        """Drop a selection that no longer matches the dice rolled (e.g. after an undo)."""
        rolled = list(getattr(state, "rolled", []))
        if any(i >= len(rolled) for i in self.assigned) or (
            self.selected is not None and self.selected >= len(rolled)
        ):
            self.assigned, self.selected = {}, None

    def tap_die(self, i: int) -> None:
        if i in self.assigned:  # a die already set on a card comes back to the roll
            del self.assigned[i]
            self.selected = i
            return
        self.selected = None if self.selected == i else i

    def tap_image(self, pos: int, face: int | None, state: GameState, actions: TableActions) -> None:
        """Put the chosen die (or, with none chosen, a rolled die showing ``face``) beside card ``pos``."""
        rolled = list(getattr(state, "rolled", []))
        i = self.selected
        if i is None and face is not None:
            i = next((k for k, f in enumerate(rolled) if f == face and k not in self.assigned), None)
        if i is None:
            mine = [k for k, p in self.assigned.items() if p == pos and (face is None or rolled[k] == face)]
            if mine:  # tapping a die of this placement on the card takes it off again
                del self.assigned[max(mine)]
                return
            needs = self.needs.get(pos, "")
            first = f"No rolled die of yours shows {face}" if face is not None else "Tap a rolled die first"
            actions.say(f"{first}; {needs}" if needs else first)
            return
        trial_map = dict(self.assigned)
        trial_map[i] = pos
        saved = self.assigned
        self.assigned = trial_map
        trial = self.pending(rolled)
        self.assigned = saved
        if state.explain(trial) is not None:
            single = Place.of({pos: [rolled[i]]})  # the die alone says most plainly what is wrong
            actions.why_not(single if state.explain(single) is not None else trial)
            return
        self.assigned = trial_map
        self.selected = None
        if face is not None and face != rolled[i]:
            actions.say(f"Your {rolled[i]} goes beside the {rolled[i]} on card {pos}")

    def tap_move(self, finger: Finger, move: Move, state: GameState) -> None:
        """Roll and Take Back by their buttons; a placement by a suggestion when it is one, else built on
        the board (a rolled die, then an image of its face on the card), then Play."""
        if isinstance(move, RollOn):
            finger.tap("rfi:roll")
        elif isinstance(move, TakeBack):
            finger.tap("rfi:takeback")
        elif isinstance(move, Place):
            if not move.cards:  # only legal when no die fits: then it is the one suggestion
                finger.tap_paged(f"move:{move}")
                return
            if finger.find(f"move:{move}") is not None:  # a suggestion in sight: one tap
                finger.tap(f"move:{move}")
                return
            rolled = list(getattr(state, "rolled", []))
            cards = {c["position"]: c for c in state.view()["cards"] if c}
            for pos, faces in move.cards:
                for f in faces:
                    i = next(k for k, v in enumerate(rolled) if v == int(f) and k not in self.assigned)
                    finger.tap(f"rfi:die:{i}")
                    j = [im["face"] for im in cards[pos]["images"]].index(int(f))
                    image = f"rfi:image:{pos}:{j}"
                    finger.tap(image if finger.find(image) is not None else f"rfi:card:{pos}")
            finger.tap("rfi:play")
        else:
            super().tap_move(finger, move, state)

    # --- the cards as they come up ----------------------------------------------------------------
    def draws_cards(self, deck: str) -> bool:
        return deck == "deck"

    def card_picture(self, ui: Ui, rect: pygame.Rect, deck: str, card: str) -> None:
        """A card as printed: its points in the corner and its dice images, as large as the tile allows."""
        try:
            c = parse_card(card)
        except RuleError:  # not a card of this deck: its name
            super().card_picture(ui, rect, deck, card)
            return
        size = ui.metrics.tiny
        font = ui.font(size)
        label = str(c.points)
        line = font.get_linesize() - 2
        ui.text(label, (rect.x + 2, rect.y), size, theme.ACCENT)
        area = pygame.Rect(rect.x, rect.y + line, rect.width, rect.height - line)
        n = len(c.images)
        best = (0, 1)
        for cols in range(1, n + 1):
            rows = -(-n // cols)
            side = min((area.width - (cols - 1) * 2) // cols, (area.height - (rows - 1) * 2) // rows)
            best = max(best, (side, cols))
        side, cols = best
        rows = -(-n // cols)
        x0 = area.centerx - (cols * side + (cols - 1) * 2) // 2
        y0 = area.centery - (rows * side + (rows - 1) * 2) // 2
        for j, face in enumerate(c.images):
            r, k = divmod(j, cols)
            ir = pygame.Rect(x0 + k * (side + 2), y0 + r * (side + 2), side, side)
            pygame.draw.rect(ui.surface, IMAGE_FILL, ir, border_radius=max(2, side // 6))
            pip_r = max(1.5, side / 10)
            for px, py in PIPS[face]:
                pygame.draw.circle(ui.surface, (40, 40, 40), (ir.x + px * side, ir.y + py * side), pip_r)

    # --- board --------------------------------------------------------------------------------
    def draw_board(
        self, ui: Ui, rect: pygame.Rect, state: GameState, view: dict[str, Any], actions: TableActions
    ) -> None:
        m = ui.metrics
        self._valid(state)
        ui.panel(rect, theme.PANEL)
        inner = rect.inflate(-2 * m.pad, -2 * m.pad)
        phase = view.get("phase")
        me = view.get("current_player")
        colours: list[str] = view.get("colours", [])
        mine = colours[me] if me is not None and me < len(colours) else None
        line = ui.font(m.small).get_linesize()
        rolled: list[int] = list(view.get("rolled", []))
        matching = phase == "match"
        # the bottom: the roll (when there is one), then the players
        die = min(max(m.target, 72 if m.portrait else 52), max(m.target, inner.height // 6))
        roll_h = die + line + 4 if rolled else 0
        players = view.get("players", [])
        cols = 2 if m.portrait and len(players) > 4 else 1
        legend_rows = -(-len(players) // cols)
        spare = inner.height - roll_h - 2 * m.pad
        # the cards come first: room for three rows of die images a finger can hit (a 15 shows six)
        head = ui.font(m.body).get_linesize() + 2
        cards_need = head + 10 + 3 * (m.target + 4) + (0 if not m.portrait else 60)
        fits = max(1, min(legend_rows, (spare - cards_need) // (line + 2)))
        # every player listed, in at most four columns (two in landscape) whose names fit: the cards
        # give up a line when the rows run out
        fits = max(fits, -(-len(players) // (4 if m.portrait else 2)))
        cols = max(cols, -(-len(players) // fits))
        legend_h = fits * (line + 2)
        cards_h = inner.height - roll_h - legend_h - (m.pad if roll_h else 0) - m.pad
        cards_rect = pygame.Rect(inner.x, inner.y, inner.width, cards_h)
        self._draw_cards(ui, cards_rect, state, view, actions, mine, matching, rolled)
        y = cards_rect.bottom + m.pad
        if rolled:
            self._draw_roll(ui, pygame.Rect(inner.x, y, inner.width, roll_h), rolled, mine, matching)
            y += roll_h + m.pad
        self._draw_players(ui, pygame.Rect(inner.x, y, inner.width, inner.bottom - y), view, me, cols, fits)

    def _draw_cards(
        self,
        ui: Ui,
        rect: pygame.Rect,
        state: GameState,
        view: dict[str, Any],
        actions: TableActions,
        mine: str | None,
        matching: bool,
        rolled: list[int],
    ) -> None:
        m = ui.metrics
        cards = view.get("cards", [])
        n = max(1, len(cards))
        gap = m.pad
        cw = (rect.width - (n - 1) * gap) // n
        head = ui.font(m.body).get_linesize() + 2
        most = max((len(c["images"]) for c in cards if c), default=6)
        # the largest die image that lets the tallest card fit
        layouts = []  # (side, squareness, fewer columns, columns): the largest images, laid out squarely
        for cols in range(1, most + 1):
            rows = -(-most // cols)
            side = min(
                (cw - 12 - (cols - 1) * 4) // cols,
                (rect.height - head - 10 - (rows - 1) * 4) // rows,
                max(m.target, 72 if m.portrait else 60),
            )
            layouts.append((side, -abs(cols - rows), -cols, cols))
        side, _, _, cols = max(layouts)
        side = max(side, 12)
        per_image = side >= m.target
        pend = self.pending(rolled) if matching else Place(())
        pending = {pos: Counter(int(f) for f in faces) for pos, faces in pend.cards}
        for k, c in enumerate(cards):
            r = pygame.Rect(rect.x + k * (cw + gap), rect.y, cw, rect.height)
            ui.place(f"card:{k}", r, None if c is None else c["card"])
            if c is None:
                pygame.draw.rect(ui.surface, CARD_EDGE, r, 2, border_radius=8)
                phase = view.get("phase")
                blank = {"deal": "to deal", "draw": "to flip"}.get(phase, "no card (deck used up)")
                ui.paragraph(blank, r.inflate(-10, -10), m.small, theme.MUTED)
                continue
            pos = c["position"]
            self.needs[pos] = c.get("needs", "")
            ui.panel(r, CARD_FILL, border=CARD_EDGE, width=2)
            number = f"#{pos}"
            points = f"{c['points']} pts"
            room = cw - 16 - ui.font(m.small).size(number)[0]
            if ui.font(m.body).size(points)[0] > room:
                points = str(c["points"])
            ui.text(number, (r.x + 6, r.y + head // 2 + 1), m.small, theme.MUTED, "midleft")
            ui.text(points, (r.right - 6, r.y + head // 2 + 1), m.body, theme.ACCENT, "midright")
            images = c["images"]
            rows = -(-len(images) // cols)
            used_w = cols * side + (cols - 1) * 4
            x0 = r.centerx - used_w // 2
            y0 = r.y + head + max(0, (r.height - head - 6 - rows * side - (rows - 1) * 4) // 2)
            faces = [im["face"] for im in images]
            have = Counter(c["dice"].get(mine, [])) if mine else Counter()
            if matching and not per_image:
                area = pygame.Rect(r.x, r.y + head, r.width, r.height - head)
                ui.add(
                    Widget(
                        area,
                        f"card {pos}",
                        lambda pos=pos: self.tap_image(pos, None, state, actions),
                        True,
                        f"rfi:card:{pos}",
                        kind="tile",
                    )
                )
            for j, im in enumerate(images):
                row, col = divmod(j, cols)
                ir = pygame.Rect(x0 + col * (side + 4), y0 + row * (side + 4), side, side)
                face = im["face"]
                nth = j - faces.index(face) + 1
                new = have[face] < nth <= have[face] + pending.get(pos, Counter())[face]
                if matching and per_image:
                    ui.add(
                        Widget(
                            ir,
                            f"card {pos} image {face}",
                            lambda pos=pos, face=face: self.tap_image(pos, face, state, actions),
                            True,
                            f"rfi:image:{pos}:{j}",
                            kind="tile",
                        )
                    )
                self._image(ui, ir, face, im["dice"], mine if new else None)
                ui.place(f"image:{k}:{j}", ir, (c["card"], tuple(im["dice"])))

    def _image(self, ui: Ui, r: pygame.Rect, face: int, dice: list[str], new: str | None) -> None:
        """A printed die image, with a letter chip for every colour of dice beside it."""
        m = ui.metrics
        pygame.draw.rect(ui.surface, IMAGE_FILL, r, border_radius=max(4, r.width // 6))
        pip_r = max(2, r.width // 12)
        for px, py in PIPS[face]:
            pygame.draw.circle(ui.surface, (60, 60, 60), (r.x + px * r.width, r.y + py * r.height), pip_r)
        chips = list(dice) + ([new] if new else [])
        if not chips:
            return
        size = m.small - 4 if m.small - 4 >= (24 if m.portrait else 20) else m.small
        ch = min(r.height // 2, ui.font(size).get_linesize() + 2)
        cw = max(ch, min(r.width // 2, ch + 4))
        per_row = max(1, r.width // cw)
        shown = chips if len(chips) <= per_row else chips[: per_row - 1]
        x = r.x
        for colour in shown:
            chip = pygame.Rect(x, r.bottom - ch, cw, ch)
            pygame.draw.rect(ui.surface, DIE_RGB.get(colour, (128, 128, 128)), chip, border_radius=4)
            pygame.draw.rect(ui.surface, (20, 20, 20), chip, 1, border_radius=4)
            ui.text(letter(colour), chip.center, size, ink(colour), "center")
            x += cw
        if len(shown) < len(chips):
            chip = pygame.Rect(x, r.bottom - ch, cw, ch)
            pygame.draw.rect(ui.surface, (30, 30, 30), chip, border_radius=4)
            ui.text(f"+{len(chips) - len(shown)}", chip.center, size, theme.TEXT, "center")
        if new:  # this placement, not yet played
            pygame.draw.rect(
                ui.surface, theme.SELECTED, r.inflate(4, 4), 4, border_radius=max(4, r.width // 6)
            )

    def _draw_roll(
        self, ui: Ui, rect: pygame.Rect, rolled: list[int], mine: str | None, matching: bool
    ) -> None:
        m = ui.metrics
        line = ui.font(m.small).get_linesize()
        label = "Rolled:" if matching else "Roll:"
        side = rect.height - line - 4
        lw = ui.font(m.small).size(label)[0]
        if rect.width - lw - m.pad >= len(rolled) * (m.target + m.pad):
            ui.text(label, (rect.x, rect.y + (rect.height - line) // 2), m.small, theme.MUTED, "midleft")
            x = rect.x + lw + m.pad
        else:  # no room for the word: the dice come first
            x = rect.x
        step = min(side + m.pad, (rect.right - x) // max(1, len(rolled)))
        side = min(side, step - 4)
        colour = mine or "white"
        for i, face in enumerate(rolled):
            r = pygame.Rect(x + i * step, rect.y + 2, side, side)
            if matching:
                ui.add(
                    Widget(r, f"die {face}", lambda i=i: self.tap_die(i), True, f"rfi:die:{i}", kind="tile")
                )
            placed = self.assigned.get(i)
            body = DIE_RGB.get(colour, (200, 200, 200))
            if placed is not None:
                body = tuple(v // 2 + 40 for v in body)
            pygame.draw.rect(ui.surface, body, r, border_radius=side // 6)
            pygame.draw.rect(ui.surface, (140, 140, 140), r, 2, border_radius=side // 6)
            pr = max(3, side // 11)
            for px, py in PIPS[face]:
                pygame.draw.circle(ui.surface, ink(colour), (r.x + px * side, r.y + py * side), pr)
            if i == self.selected:
                pygame.draw.rect(ui.surface, theme.SELECTED, r.inflate(8, 8), 4, border_radius=side // 5)
                under = "chosen" if ui.font(m.small).size("chosen")[0] <= step else "*"
                col = theme.SELECTED
            elif placed is not None:
                under, col = f"> #{placed}", theme.ACCENT
            else:
                under, col = letter(colour), theme.MUTED
            ui.text(under, (r.centerx, r.bottom + 2), m.small, col, "midtop", step)

    def _draw_players(
        self, ui: Ui, rect: pygame.Rect, view: dict[str, Any], me: int | None, cols: int, rows: int
    ) -> None:
        m = ui.metrics
        line = ui.font(m.small).get_linesize() + 2
        players = view.get("players", [])
        colours = view.get("colours", [])
        hands = view.get("dice_in_hand", [])
        piles = view.get("score_piles", [])
        order = ([me] if me is not None else []) + [p for p in range(len(players)) if p != me]
        cw = rect.width // cols
        for k, p in enumerate(order[: rows * cols]):
            col, row = divmod(k, rows)
            x, y = rect.x + col * cw, rect.y + row * line
            colour = colours[p] if p < len(colours) else "white"
            chip = pygame.Rect(x, y + 1, line - 2, line - 2)
            pygame.draw.rect(ui.surface, DIE_RGB.get(colour, (128, 128, 128)), chip, border_radius=4)
            pygame.draw.rect(ui.surface, (200, 200, 200), chip, 1, border_radius=4)
            ui.text(letter(colour), chip.center, m.small, ink(colour), "center")
            pile = piles[p] if p < len(piles) else {"cards": [], "points": 0}
            hand = hands[p] if p < len(hands) else 0
            won = len(pile["cards"])
            name = players[p]
            text = ui.words_that_fit(
                [f"{name} ({colour}): {hand} in hand, {6 - hand} on cards, {won} won",
                 f"{name}: {hand} in hand, {won} won", f"{name}: {hand} hand, {won} won",
                 name],
                m.small,
                cw - chip.width - 10,
            )
            colour_text = theme.ACCENT if p == me else theme.TEXT
            ui.text(text, (chip.right + 6, chip.centery), m.small, colour_text, "midleft")

    def side_height(self, ui: Ui, state: GameState) -> int | None:
        """Portrait: Play and Clear, two rows of suggested moves on two lines each (a placement on three
        cards: "+5: #1: 4, 4, 5;" / "#3: 1, 3; #4: 4") and the paging row: four a page."""
        m = ui.metrics
        rows = max(m.button_h, 2 * ui.font(m.body).get_linesize() + 8)
        return m.button_h + m.pad + 2 * (rows + m.pad) + m.button_h if m.portrait else None

    # --- choices ------------------------------------------------------------------------------
    def draw_choices(
        self, ui: Ui, rect: pygame.Rect, state: GameState, moves: Sequence[Move], actions: TableActions
    ) -> None:
        m = ui.metrics
        phase = getattr(state, "phase", "")
        if phase == "start":
            hand = state.hand[state.turn]  # type: ignore[attr-defined]
            h = min(m.button_h + 40, (rect.height - m.pad) // 2)
            ui.button(
                pygame.Rect(rect.x, rect.y, rect.width, h),
                "Roll",
                lambda: actions.play(RollOn()),
                id="rfi:roll",
                sub=f"the {hand} in hand" if hand else "pass: none in hand",
            )
            ui.button(
                pygame.Rect(rect.x, rect.y + h + m.pad, rect.width, h),
                "Take Back",
                lambda: actions.play(TakeBack()),
                id="rfi:takeback",
                sub="all 6 back, roll them",
                colour=(120, 90, 60),
            )
            return
        if phase != "match":
            super().draw_choices(ui, rect, state, moves, actions)
            return
        self._valid(state)
        rolled = list(getattr(state, "rolled", []))
        move = self.pending(rolled)
        key = (str(move), tuple(str(mv) for mv in moves))
        if self._legal[0] != key:
            self._legal = (key, bool(move.cards) and state.explain(move) is None)
        y = rect.y
        if not m.portrait:  # portrait: the hint is under Play (the suggestions get a row more)
            hint = ui.words_that_fit(("Tap a die, then an image", "Tap die, then image"), m.small, rect.width)
            ui.text(hint, (rect.x, y), m.small, theme.MUTED)
            y += ui.font(m.small).get_linesize() + 4
        idle = "tap a die, then an image" if m.portrait else "nothing chosen"
        bw = rect.width - m.pad - max(m.target + 24, rect.width // 3)
        if not m.portrait:
            idle = ui.words_that_fit(("nothing chosen", "none chosen", "none yet"), m.small, bw - 12)
        ui.button(
            pygame.Rect(rect.x, y, bw, m.button_h),
            "Play",
            lambda: self._play(move, actions),
            id="rfi:play",
            enabled=self._legal[1],
            colour=theme.CONFIRM,
            sub=placement_words(move) if move.cards else idle,
        )
        ui.button(
            pygame.Rect(rect.x + bw + m.pad, y, rect.right - rect.x - bw - m.pad, m.button_h),
            "Clear",
            self.reset,
            id="rfi:clear",
            enabled=bool(self.assigned) or self.selected is not None,
        )
        y += m.button_h + m.pad
        if not m.portrait:  # portrait: the two columns of moves under Play say what they are
            ui.text("Suggestions", (rect.x, y), m.small, theme.MUTED)
            y += ui.font(m.small).get_linesize() + 2
        hkey = tuple(str(mv) for mv in moves)
        if self._hints[0] != hkey:
            hints = state.hints() if hasattr(state, "hints") else []  # type: ignore[attr-defined]
            self._hints, self.page = (hkey, hints), 0
        items = []
        for h in self._hints[1]:
            gain = f"+{h.points}: " if h.points else ""
            first, *rest = placement_phrases(h.move)
            label = "\n".join((gain + first, *rest))
            items.append((label, (lambda mv=h.move: actions.play(mv)), f"move:{h.move}"))
        area = pygame.Rect(rect.x, y, rect.width, rect.bottom - y)
        self.page = paged_buttons(ui, area, items, self.page, lambda p: setattr(self, "page", p))

    def _play(self, move: Place, actions: TableActions) -> None:
        if actions.play(move):
            self.reset()


VIEW = RollForItView
