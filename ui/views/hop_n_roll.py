"""Hop'n'ROLL: the dice board (pawn columns either side of the dice, B-side effect spaces labelled) and
a player's score sheet drawn like the printed one (rows, pyramids, stars, bonus spaces, numbers).

Legal board spaces and sheet spaces get a yellow frame AND a symbol (an arrow on the board, a tick on
the sheet). Tap a free board space to hop there, a sheet row or pyramid space to write there; an
illegal tap answers "why not?". When a tap allows several moves (an effect space, the disco die's free
number) the move list narrows to them. "Sheet: <name> >" shows the other players' sheets."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pygame

from companion.games.hop_n_roll.moves import Hop, Pass, Write
from companion.protocol import GameState, Move
from ui import theme
from ui.views.base import GameView, TableActions, list_capacity, paged_buttons
from ui.widgets import Ui, Widget, draw_die, star_points

INK = (25, 25, 30)
STAR_INK = (120, 85, 10)  # a space's stars (a star drawn and its number)
BOARD_BG = (56, 62, 78)
SPACE = (84, 92, 112)
DISCO = {
    "yellow": (240, 205, 60),
    "green": (95, 185, 95),
    "blue": (90, 150, 235),
    "pink": (235, 125, 185),
    "orange": (245, 150, 60),
    "any": (215, 215, 215),
}
EFFECT_WORD = {"minus": "-1", "plus-minus": "\u00b11", "either": "or", "dj": "DJ"}


def area_word(key: str) -> str:
    """A row's or pyramid's name as its label on the sheet says it and the moves name it ("UP")."""
    return key.upper()


def pale(rgb: tuple[int, int, int], k: float = 0.55) -> tuple[int, int, int]:
    return tuple(int(c + (255 - c) * k) for c in rgb)  # type: ignore[return-value]


def tick(ui: Ui, rect: pygame.Rect, colour=INK, width: int = 4) -> None:
    """A check mark in the bottom-right corner of ``rect`` (the 'you may write here' symbol)."""
    s = max(10, min(rect.width, rect.height) // 3)
    x, y = rect.right - s - 3, rect.bottom - s - 3
    pygame.draw.lines(ui.surface, colour, False, [(x, y + s * 0.55), (x + s * 0.4, y + s), (x + s, y)], width)


def arrow(ui: Ui, rect: pygame.Rect, right: bool, colour=theme.SELECTED) -> None:
    """A filled arrow head pointing the way the pawns hop (the 'you may hop here' symbol)."""
    h = max(8, rect.height // 4)
    cy = rect.centery
    if right:
        x = rect.x + 4
        pts = [(x, cy - h), (x + h, cy), (x, cy + h)]
    else:
        x = rect.right - 4
        pts = [(x, cy - h), (x - h, cy), (x, cy + h)]
    pygame.draw.polygon(ui.surface, colour, pts)


def target(
    ui: Ui,
    rect: pygame.Rect, wid: str, action: Callable[[], Any], bound: pygame.Rect | None = None
) -> Widget:
    """A tappable area at least 9 mm each way on this screen (kept inside ``bound``)."""
    r = pygame.Rect(rect)
    t = ui.metrics.target
    if r.width < t or r.height < t:
        r = r.inflate(max(0, t - r.width), max(0, t - r.height))
    if bound is not None:
        r.clamp_ip(bound)
    return Widget(r, wid, action, True, wid, kind="tile")


class HopNRollView(GameView):
    def __init__(self, info) -> None:
        super().__init__(info)
        self.shown: int | None = None  # whose sheet is drawn (None: the player acting now)
        self.words: list[str] = []  # the drawn sheet's row labels
        self.row: int | None = None  # a tapped board row with several ways to use it
        self.pick: tuple[str, str | None] | None = None  # a tapped sheet space (or area) with several moves
        self.hops: dict[str, dict[str, Any]] = {}
        self.whose = ""

    def reset(self) -> None:
        super().reset()
        self.shown = self.row = self.pick = None

    def focus(self, player: int | None) -> None:
        self.shown = player

    # --- words --------------------------------------------------------------------------------
    def describe(self, move: Move) -> str:
        return " ".join(self.phrases(move))

    def phrases(self, move: Move) -> tuple[str, ...]:
        if isinstance(move, Hop):
            h = self.hops.get(str(move))
            got = ""
            if h is not None:
                got = f"take {h['value']}" if h["value"] is not None else f"disco {h['colour']}"
            if move.dj is not None:
                return f"Row {move.row} DJ:", f"take {move.dj}"
            if move.die is not None:
                return f"Row {move.row}: {got},", f"die of row {move.die}"
            if move.change:
                return f"Row {move.row}:", f"{got} ({move.change:+d})"
            return (f"Row {move.row}:", got) if got else (f"Hop to row {move.row}",)
        if isinstance(move, Write):
            return f"Write {move.value}", f"in {area_word(move.area)}, space {move.space}"
        if isinstance(move, Pass):
            return "Pass", "(fits nowhere)"
        return (str(move),)

    def score_note(self, view: dict[str, Any], player: int) -> str | tuple[str, ...]:
        sheets = view.get("sheets", [])
        if player < len(sheets):
            s = sheets[player]
            return f"{s['completed']} done, {s['sixes']} sixes", f"{s['completed']} done, {s['sixes']} 6s"
        return ""

    # --- the whole board area -----------------------------------------------------------------
    def draw_board(
        self, ui: Ui, rect: pygame.Rect, state: GameState, view: dict[str, Any], actions: TableActions
    ) -> None:
        m = ui.metrics
        board = view.get("board", {})
        sheets = view.get("sheets", [])
        self.hops = {h["move"]: h for h in board.get("legal_hops", [])}
        ui.panel(rect, theme.PANEL)
        inner = rect.inflate(-2 * m.pad, -2 * m.pad)
        phase = view.get("phase")
        me = view.get("current_player")
        shown = self.shown if self.shown is not None else (me if me is not None else 0)
        shown = min(shown, len(sheets) - 1)
        writing = phase == "write" and shown == me
        pitch = min(inner.height // max(1, board.get("rows", 6)), 84 if m.portrait else 64)
        board_w = int(pitch * 3.3)
        if phase == "write":  # the whole width for the sheet: its spaces are 9 mm targets
            self.draw_sheet(ui, inner, sheets[shown], view, writing, state, actions)
            return
        left = pygame.Rect(inner.x, inner.y, board_w, inner.height)
        self.draw_dice_board(ui, left, board, view, phase == "hop", state, actions)
        right = pygame.Rect(left.right + m.pad, inner.y, inner.right - left.right - m.pad, inner.height)
        self.draw_sheet(ui, right, sheets[shown], view, writing, state, actions)

    # --- the dice board -----------------------------------------------------------------------
    def draw_dice_board(
        self,
        ui: Ui,
        rect: pygame.Rect,
        board: dict[str, Any],
        view: dict[str, Any],
        live: bool,
        state: GameState,
        actions: TableActions,
    ) -> None:
        m = ui.metrics
        rows = board.get("rows", 6)
        pitch = min(rect.height // rows, 84 if m.portrait else 64)
        gap = 4
        side_w = (rect.width - pitch - 2 * gap) // 2
        pygame.draw.rect(ui.surface, BOARD_BG, (rect.x, rect.y, rect.width, pitch * rows), border_radius=8)
        dice = {d["row"]: d for d in board.get("dice", [])}
        effects = {(s["column"], s["row"]): s for s in board.get("spaces", [])}
        legal_rows = {h["row"] for h in board.get("legal_hops", [])}
        hop_to = board.get("hop_to")
        pawns: dict[tuple[str, int], list[int]] = {}
        for p in board.get("pawns", []):
            pawns.setdefault((p["column"], p["row"]), []).append(p["player"])
        bound = pygame.Rect(rect.x, rect.y, rect.width, pitch * rows)
        for r in range(1, rows + 1):
            y = rect.y + (r - 1) * pitch
            for column, x in (("left", rect.x), ("right", rect.right - side_w)):
                sp = pygame.Rect(x + 2, y + 2, side_w - 4, pitch - 4)
                legal = live and column == hop_to and r in legal_rows
                is_target = live and column == hop_to
                if is_target:
                    ui.add(target(ui, pygame.Rect(x, y, side_w, pitch), f"space:{r}",
                                  lambda r=r: self._tap_space(r, state, actions), bound))
                pygame.draw.rect(ui.surface, SPACE, sp, border_radius=6)
                eff = effects.get((column, r), {}).get("effect")
                if eff:
                    word = EFFECT_WORD[eff]
                    if eff == "either":
                        word = f"or {effects[(column, r)]['other']}"
                    pygame.draw.rect(ui.surface, (150, 110, 200), sp, 3, border_radius=6)
                    ui.text(word, (sp.centerx, sp.y + 1), m.small, theme.TEXT, "midtop", sp.width - 4)
                if legal:
                    pygame.draw.rect(ui.surface, theme.SELECTED, sp, 4, border_radius=6)
                    arrow(ui, sp, hop_to == "right")
                here = pawns.get((column, r), [])
                ui.place(f"space:{column}:{r}", sp, tuple(here))
                for k, p in enumerate(here):
                    col = actions.colour(p)
                    rad = max(8, pitch // 4)
                    cx = sp.centerx + (k - (len(here) - 1) / 2) * rad * 1.6
                    cy = sp.bottom - rad - 3 if eff else sp.centery
                    pygame.draw.circle(ui.surface, INK, (int(cx), int(cy)), rad + 3)
                    ui.shape(col.shape, (int(cx), int(cy)), rad, col.rgb)
            d = pygame.Rect(rect.x + side_w + gap, y + 3, pitch - 6, pitch - 6)
            d.centerx = rect.centerx
            die = dice.get(r)
            ui.place(f"die:{r}", d, None if die is None else (die["kind"], die["face"]))
            if die is None:
                pygame.draw.rect(ui.surface, (44, 48, 60), d, border_radius=8)
            elif die["kind"] == "disco":
                self._disco(ui, d, die["face"])
            else:
                draw_die(ui, d, "d6", die["face"])
            if live:
                ui.add(target(ui, d, f"board:die:{r}", lambda r=r: self._tap_space(r, state, actions), bound))
        y = rect.y + rows * pitch + 4
        if y + ui.font(m.small).get_linesize() <= rect.bottom:
            way = {"right": "hop right >", "left": "< hop left"}.get(hop_to or "", "")
            words = f"Side {board.get('side', 'A')}  {way}"
            ui.text(words, (rect.centerx, y), m.small, theme.MUTED, "midtop", rect.width)

    def _disco(self, ui: Ui, rect: pygame.Rect, face: str) -> None:
        pygame.draw.rect(ui.surface, (30, 30, 34), rect, border_radius=rect.width // 6)
        rgb = DISCO.get(face, DISCO["any"])
        pygame.draw.circle(ui.surface, rgb, rect.center, rect.width // 2 - 4)
        letter = "?" if face == "any" else face[:1].upper()
        ui.text(letter, rect.center, ui.metrics.body, INK, "center")

    # --- a score sheet ------------------------------------------------------------------------
    def draw_sheet(
        self,
        ui: Ui,
        rect: pygame.Rect,
        sheet: dict[str, Any],
        view: dict[str, Any],
        live: bool,
        state: GameState,
        actions: TableActions,
    ) -> None:
        m = ui.metrics
        self.whose = sheet["name"]  # the places of the sheet are named by whose it is
        self.words = [area_word(a["key"]) for a in sheet["areas"]]
        line = ui.font(m.body).get_linesize()  # the header gives the score: 3 mm
        pend = sheet.get("pending")
        todo = ""
        if pend is not None:
            todo = f"; to write: {pend['value'] if pend['value'] is not None else pend['colour']}"
        name, total = sheet["name"], sheet["total"]
        points = "point" if total == 1 else "points"
        head = ui.words_that_fit(
            [f"{name}: {sheet['side']} sheet, {total} {points}{todo}", f"{name}: {total} {points}{todo}",
             f"{name}: {total} pts{todo.replace('to write', 'write')}", f"{name}: {total} pts"],
            m.body,
            rect.width,
        )
        ui.text(head, (rect.x, rect.y), m.body, theme.ACCENT if live else theme.TEXT)
        top = rect.y + line + 2
        bands: list[list[dict[str, Any]]] = []
        for a in sheet["areas"]:
            if a["shape"] == "pyramid" and bands and bands[-1][0]["shape"] == "pyramid":
                bands[-1].append(a)
            else:
                bands.append([a])
        n_rows = sum(1 for b in bands if b[0]["shape"] == "row")
        levels = sum(max(len(a["levels"]) for a in b) for b in bands if b[0]["shape"] == "pyramid")
        avail = rect.bottom - top
        rp = min(avail / (n_rows + 0.8 * levels), max(m.target, 72 if m.portrait else 60))
        pp = rp * 0.8
        if live and rp < m.target:
            rp = m.target
            pp = (avail - n_rows * rp) / max(1, levels)
        y = float(top)
        label_w = min(int(rect.width * 0.2), 110)
        for band in bands:
            if band[0]["shape"] == "row":
                self._row(ui, pygame.Rect(rect.x, int(y), rect.width, int(rp)), band[0], label_w, live, state,
                          actions)
                y += rp
            else:
                h = max(len(a["levels"]) for a in band) * pp
                self._pyramids(ui, pygame.Rect(rect.x, int(y), rect.width, int(h)), band, pp, live, state,
                               actions)
                y += h

    def _label(self, ui: Ui, r: pygame.Rect, area: dict[str, Any]) -> None:
        rgb = DISCO.get(area["colour"], DISCO["any"])
        pygame.draw.rect(ui.surface, rgb, r, border_radius=6)
        # the word the moves say, smaller (down to 2 mm) before it is cut to the shortest start no other
        # row's word shares ("SA" and "SE", not two "S")
        word = area_word(area["key"])
        others = [w for w in self.words if w != word]
        k = next((k for k in range(1, len(word)) if not any(w.startswith(word[:k]) for w in others)),
                 len(word))
        m = ui.metrics
        tries = [(text, z) for text in (word, word[:k]) for z in (m.small, m.tiny)]
        fits = [(t, z) for t, z in tries if ui.font(z).size(t)[0] <= r.width - 6]
        text, size = fits[0] if fits else (word[:k], m.tiny)
        ui.text(text, (r.x + 3, r.centery), size, INK, "midleft")
        if area["complete"]:
            pygame.draw.rect(ui.surface, INK, r, 3, border_radius=6)

    def _cell(
        self, ui: Ui, r: pygame.Rect, area: dict[str, Any], s: dict[str, Any], stars: int | None
    ) -> None:
        m = ui.metrics
        rgb = DISCO.get(area["colour"], DISCO["any"])
        fill = rgb if s["bonus"] else pale(rgb, 0.62)
        pygame.draw.rect(ui.surface, fill, r, border_radius=5)
        if s["bonus"]:  # the bonus space: fully coloured, with a double frame
            pygame.draw.rect(ui.surface, INK, r, 2, border_radius=5)
            pygame.draw.rect(ui.surface, INK, r.inflate(-8, -8), 1, border_radius=3)
        if stars is not None and r.height >= 30 and r.width >= 28:
            sr = max(4, min(7, r.height // 8))
            words = str(stars)
            # the star and its number inside the space: smaller, then the number alone when narrow
            fits = [z for z in (m.small, m.tiny) if 2 * sr + 7 + ui.font(z).size(words)[0] <= r.width]
            if fits:
                pygame.draw.polygon(ui.surface, STAR_INK, star_points((r.x + sr + 3, r.y + sr + 3), sr))
                ui.text(words, (r.x + 2 * sr + 5, r.y + 1), fits[0], INK)
            else:
                ui.text(words, (r.x + 2, r.y + 1), m.tiny, INK if s["bonus"] else STAR_INK)
        if s["value"] is not None:
            big = max(m.small, min(m.body + 8, int(r.height * 0.8)))
            ui.text(str(s["value"]), (r.centerx, r.bottom - 1), big, INK, "midbottom")
        if s["legal"]:
            pygame.draw.rect(ui.surface, theme.SELECTED, r.inflate(4, 4), 4, border_radius=6)
            tick(ui, r)

    def _row(
        self,
        ui: Ui,
        band: pygame.Rect,
        area: dict[str, Any],
        label_w: int,
        live: bool,
        state: GameState,
        actions: TableActions,
    ) -> None:
        m = ui.metrics
        score_w = ui.font(m.body).size("88")[0] + 4 if band.width > 330 else 0  # the row's score, 3 mm
        self._label(ui, pygame.Rect(band.x, band.y + 2, label_w - 4, band.height - 4), area)
        spaces = area["spaces"]
        breaks = sum(1 for i in range(1, len(spaces)) if spaces[i]["group"] != spaces[i - 1]["group"]
                     and spaces[i]["group"] is not None)
        x0 = band.x + label_w
        cw = (band.right - score_w - x0 - 6 * breaks) / max(1, len(spaces))
        x = float(x0)
        for i, s in enumerate(spaces):
            if i and s["group"] is not None and s["group"] != spaces[i - 1]["group"]:
                x += 6
            cell = pygame.Rect(int(x) + 2, band.y + 3, int(cw) - 4, band.height - 6)
            self._cell(ui, cell, area, s, s["stars"])
            ui.place(f"sheet:{self.whose}:{area['key']}:{s['id']}", cell, s["value"])
            x += cw
        if score_w:
            ui.text(str(area["score"]), (band.right - 2, band.centery), m.body, theme.TEXT, "midright")
        if live:
            ui.add(target(ui, pygame.Rect(x0, band.y, band.right - x0, band.height), f"sheet:{area['key']}",
                          lambda: self._tap_sheet(area, None, state, actions)))

    def _pyramids(
        self,
        ui: Ui,
        band: pygame.Rect,
        areas: list[dict[str, Any]],
        pp: float,
        live: bool,
        state: GameState,
        actions: TableActions,
    ) -> None:
        m = ui.metrics
        aw = band.width / len(areas)
        star_w = 40
        for k, a in enumerate(areas):
            box = pygame.Rect(int(band.x + k * aw), band.y, int(aw) - 6, band.height)
            widest = max(a["levels"])
            pc = min(max(pp * 1.3, m.target if live else 0), box.width / widest)
            room = box.width - widest * pc >= star_w
            n_lv = len(a["levels"])
            lab = pygame.Rect(box.x, box.y + 2, min(box.width // 3, 110), min(int(pp) - 4, 44))
            self._label(ui, lab, a)
            cx = box.x + (box.width - (star_w if room else 0)) / 2
            by_level: dict[int, list[dict[str, Any]]] = {}
            for s in a["spaces"]:
                by_level.setdefault(s["level"], []).append(s)
            for lv in range(1, n_lv + 1):
                row = by_level.get(lv, [])
                step = lv - 1 if a["grows"] == "down" else n_lv - lv
                y = box.y + step * pp
                x0 = cx - len(row) * pc / 2
                beside = room or box.right - (x0 + len(row) * pc) >= star_w
                for i, s in enumerate(row):
                    left = int(x0 + (s["position"] - 1) * pc)
                    r = pygame.Rect(left + 2, int(y) + 2, int(pc) - 4, int(pp) - 4)
                    self._cell(ui, r, a, s, None if beside or i else a["level_stars"][lv - 1])
                    ui.place(f"sheet:{self.whose}:{a['key']}:{s['id']}", r, s["value"])
                    if live and s["open"]:
                        ui.add(target(ui, r, f"sheet:{a['key']}:{s['id']}",
                                      lambda a=a, s=s: self._tap_sheet(a, s["id"], state, actions), box))
                if beside:
                    sx = int(x0 + len(row) * pc) + 2
                    sy = int(y + pp / 2)
                    pygame.draw.polygon(ui.surface, (220, 180, 40), star_points((sx + 7, sy), 7))
                    ui.text(str(a["level_stars"][lv - 1]), (sx + 15, sy), m.small, theme.TEXT, "midleft")

    # --- taps ---------------------------------------------------------------------------------
    def _tap_space(self, row: int, state: GameState, actions: TableActions) -> None:
        self.page = 0
        hops = [h for h in state.legal_moves() if isinstance(h, Hop) and h.row == row]
        if len(hops) == 1:
            self.row = None
            actions.play(hops[0])
        elif hops:
            self.row = row
            actions.say(f"Row {row}: choose how to use this space")
        else:
            self.row = None
            actions.why_not(Hop(row))

    def _tap_sheet(self, area: dict[str, Any], space: str | None, state: GameState,
                   actions: TableActions) -> None:
        self.page = 0
        key = area["key"]
        if space is None:
            opened = [s["id"] for s in area["spaces"] if s["open"]]
            space = opened[0] if opened else area["spaces"][-1]["id"]
        writes = [
            w for w in state.legal_moves() if isinstance(w, Write) and w.area == key and w.space == space
        ]
        if len(writes) == 1:
            self.pick = None
            actions.play(writes[0])
        elif writes:
            self.pick = (key, space)
            actions.say(f"Which number goes in {area['name']} {space}?")
        else:
            self.pick = None
            pend = getattr(state, "pending", [])
            player = state.current_player
            value = 1
            if player is not None and player < len(pend) and pend[player] and pend[player][0] is not None:
                value = pend[player][0]
            actions.why_not(Write(key, space, value))


    # --- the move list ------------------------------------------------------------------------
    def draw_choices(
        self, ui: Ui, rect: pygame.Rect, state: GameState, moves: Sequence[Move], actions: TableActions
    ) -> None:
        m = ui.metrics
        players = len(state.players)
        area = rect
        middle = None  # portrait: the sheet button sits between Prev and Next (a row more for moves)
        if players > 1:
            me = state.current_player or 0
            now = self.shown if self.shown is not None else me
            nxt = (now + 1) % players
            sheet = (f"Sheet: {state.players[nxt]} >", lambda: setattr(self, "shown", nxt), "sheet:next")
            if m.portrait:
                middle = sheet
            else:
                area = pygame.Rect(rect.x, rect.y, rect.width, rect.height - m.button_h - m.pad)
                ui.button(pygame.Rect(rect.x, rect.bottom - m.button_h, rect.width, m.button_h),
                          sheet[0], sheet[1], id=sheet[2], size=m.small)
        self.middle = middle
        chosen: list[Move] | None = None
        if self.row is not None:
            chosen = [mv for mv in moves if isinstance(mv, Hop) and mv.row == self.row]
        elif self.pick is not None:
            area_key, space = self.pick
            chosen = [
                mv
                for mv in moves
                if isinstance(mv, Write) and mv.area == area_key and space in (None, mv.space)
            ]
        turn = lambda p: setattr(self, "page", p)  # noqa: E731
        if chosen:
            key = ("narrow", *(str(mv) for mv in chosen))
            if key != self._moves_key:
                self._moves_key, self.page = key, 0
            back = ("< All moves", self._clear, "group:back")
            items = [(self.label(mv), (lambda mv=mv: actions.play(mv)), f"move:{mv}") for mv in chosen]
            if m.portrait:  # the way back takes the sheet button's place: four moves a page
                self.page = paged_buttons(ui, area, items, self.page, turn, middle=back)
            else:
                self.page = paged_buttons(ui, area, [back, *items], self.page, turn)
            return
        hops = [mv for mv in moves if isinstance(mv, Hop)]
        # one button per board row, like tapping the space
        if hops and len(hops) > list_capacity(ui, area, middle):
            by_row: dict[int, list[Hop]] = {}
            for mv in hops:
                by_row.setdefault(mv.row, []).append(mv)
            key = ("rows", *(str(mv) for mv in hops))
            if key != self._moves_key:
                self._moves_key, self.page = key, 0
            items = []
            for row, group in by_row.items():
                if len(group) == 1:
                    mv = group[0]
                    items.append((self.label(mv), (lambda mv=mv: actions.play(mv)), f"move:{mv}"))
                else:
                    items.append((f"Row {row}:\n{len(group)} ways ...", (lambda r=row: self._narrow(r)),
                                  f"group:hop {row}"))
            self.page = paged_buttons(ui, area, items, self.page, turn, middle=middle)
            return
        writes = [mv for mv in moves if isinstance(mv, Write)]
        if len(writes) > list_capacity(ui, area, middle) and len({mv.value for mv in writes}) == 1:
            by_area: dict[str, list[Write]] = {}  # one button per row or pyramid, like tapping the sheet
            for mv in writes:
                by_area.setdefault(mv.area, []).append(mv)
            key = ("areas", *(str(mv) for mv in writes))
            if key != self._moves_key:
                self._moves_key, self.page = key, 0
            items = []
            for name, group in by_area.items():
                mv = group[0]
                if len(group) == 1:
                    items.append((self.label(mv), (lambda mv=mv: actions.play(mv)), f"move:{mv}"))
                else:
                    label = f"{area_word(name)}:\n{len(group)} spaces ..."
                    wid = f"group:write {mv.value} {name}"
                    items.append((label, (lambda a=name: self._narrow_area(a)), wid))
            self.page = paged_buttons(ui, area, items, self.page, turn, middle=middle)
            return
        super().draw_choices(ui, area, state, moves, actions)

    def _narrow_area(self, key: str) -> None:
        self.pick, self.page = (key, None), 0

    def _narrow(self, row: int) -> None:
        self.row, self.page = row, 0

    def _clear(self) -> None:
        self.row = self.pick = None
        self.page = 0


VIEW = HopNRollView
