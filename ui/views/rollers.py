"""Rollers: every player's board (sections 1-5 empty, open or closed), chips, and the dice kept and
showing (STAR and ZAP drawn as such). Between rolls, tap dice to keep them; when applying, tap a
section of your board to see the moves that use it, or why none does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from companion.games.rollers import DICE, ApplyMove, KeepMove, StopMove
from companion.protocol import GameState, Move
from ui import theme
from ui.views.base import Finger, GameView, TableActions, die_name, label_size, lines_at_body, paged_buttons
from ui.widgets import Ui, draw_die

KINDS = {d.slot: d.kind for d in DICE}
SLOT_ORDER = [d.slot for d in DICE]
STATUS_FILL = {"empty": (50, 56, 70), "open": (200, 200, 150), "closed": (90, 60, 40)}


def dice_used(m: ApplyMove) -> int:
    return sum(m.opens) + len(m.closes) + sum(k for _, k in m.collects)


def sections(numbers) -> str:
    return ", ".join(f"{n}s" for n in numbers)


def apply_phrases(move: ApplyMove) -> tuple[str, ...]:
    """An apply move in phrases, one per kind of marker or chip ("Open & close 1s, 2s;", "Collect 4s x2",
    "(STAR as 4)"): sections listed after one verb, so that the longest moves take two lines of a
    button half the portrait list wide."""
    both = sorted(set(move.opens) & set(move.closes))
    parts = []
    if both:
        parts.append("Open & close " + sections(both))
    if opened := sorted(set(move.opens) - set(both)):
        parts.append("Open " + sections(opened))
    if closed := sorted(set(move.closes) - set(both)):
        parts.append("Close " + sections(closed))
    if move.collects:
        parts.append("Collect " + ", ".join(f"{n}s" if k == 1 else f"{n}s x{k}" for n, k in move.collects))
    phrases = [p + ";" for p in parts[:-1]] + parts[-1:] or ["Apply nothing"]
    if move.stars:
        word = "STAR" if len(move.stars) == 1 else "STARs"
        phrases.append(f"({word}: {','.join(map(str, move.stars))})")
    return tuple(phrases)


class RollersView(GameView):
    def __init__(self, info) -> None:
        super().__init__(info)
        self.keep: set[str] = set()
        self.section: int | None = None

    def reset(self) -> None:
        super().reset()
        self.keep = set()
        self.section = None

    # --- words --------------------------------------------------------------------------------
    def describe(self, move: Move) -> str:
        return " ".join(self.phrases(move))

    def phrases(self, move: Move) -> tuple[str, ...]:
        if isinstance(move, KeepMove):
            if not move.slots:
                return ("Roll all again",)
            return "Keep " + ", ".join(map(die_name, move.slots)) + ",", "roll the rest"
        if isinstance(move, StopMove):
            return "Stop and", "apply the dice"
        if isinstance(move, ApplyMove):
            return apply_phrases(move)
        return (str(move),)

    def side_height(self, ui: Ui, state: GameState) -> int | None:
        """Portrait: the hint, two rows of two moves, one of them four lines tall and the other three
        (the longest apply moves: "Open & close 1s; Open 2s; Collect 1s x2 (STARs: 1,2,2)"), and the
        paging row: four moves a page (:func:`apply_pages`)."""
        m = ui.metrics
        if not m.portrait:
            return None
        line = ui.font(m.body).get_linesize()
        rows = (4 * line + 8) + m.pad + (3 * line + 8) + m.pad
        return ui.font(m.small).get_linesize() + 4 + rows + m.button_h

    def score_note(self, view: dict[str, Any], player: int) -> str | tuple[str, ...]:
        chips = view.get("chips", [])
        if player < len(chips):
            c = chips[player]
            v, p, w = c["value"], c["purple"], c["white"]
            return f"{v} in chips: {p} purple, {w} white", f"{v} chips: {p} purple, {w} white", f"{v} chips"
        return ""

    def touched(self, move: Move, player: int, before: dict[str, Any], changed: list[str]) -> list[str]:
        """Applied dice: the mover's sections the move used (a collect leaves its section as it was, and a
        move that ends the round clears every board); else the dice that changed."""
        if isinstance(move, ApplyMove):
            used = {*move.opens, *move.closes, *(n for n, _ in move.collects)}
            return [f"section:{player}:{n}" for n in sorted(used)]
        return changed

    # --- board --------------------------------------------------------------------------------
    def tap_move(self, finger: Finger, move: Move, state: GameState) -> None:
        if isinstance(move, StopMove):
            finger.tap("rollers:stop")
        elif isinstance(move, KeepMove):
            for slot in move.slots:
                finger.tap(f"keep:{slot}")
            finger.tap("rollers:roll")
        elif isinstance(move, ApplyMove):
            sections = [*move.opens, *move.closes, *(n for n, _ in move.collects)]
            if sections:
                finger.tap(f"section:{sections[0]}")
            finger.tap_paged(f"move:{move}")
        else:
            super().tap_move(finger, move, state)

    def draw_board(
        self, ui: Ui, rect: pygame.Rect, state: GameState, view: dict[str, Any], actions: TableActions
    ) -> None:
        m = ui.metrics
        ui.panel(rect, theme.PANEL)
        inner = rect.inflate(-2 * m.pad, -2 * m.pad)
        phase = view.get("phase")
        me = view.get("current_player")
        die = min(m.button_h + 16, (inner.width - 8 * m.pad) // 6)
        small_line = ui.font(m.small).get_linesize()
        # dice: kept, then showing
        y = inner.y
        x = inner.x
        saved, showing = view.get("saved", {}), view.get("showing", {})
        zapped = view.get("zapped", False)
        if not saved and not showing:
            ui.text("No dice applied yet this turn", (inner.x, y + die // 2), m.small, theme.MUTED, "midleft")
        for slot in SLOT_ORDER:
            if slot in saved:
                r = pygame.Rect(x, y, die, die)
                draw_die(ui, r, KINDS[slot], saved[slot])
                ui.place(f"die:{slot}", r, ("kept", saved[slot]))
                ui.text("kept", (r.centerx, r.bottom + 2), m.small, theme.MUTED, "midtop")
                x += die + m.pad
        if saved and showing:
            pygame.draw.line(ui.surface, theme.MUTED, (x, y), (x, y + die), 2)
            x += m.pad
        for slot in SLOT_ORDER:
            if slot not in showing:
                continue
            r = pygame.Rect(x, y, die, die)
            star_aside = showing[slot] == "star" and not zapped and state.options.get("stars") == "set aside"
            chosen = slot in self.keep or star_aside  # a STAR is set aside as it is rolled
            if phase == "decide":
                ui.add(_die_widget(ui, r, f"keep:{slot}", lambda s=slot: self._toggle(s, state, actions)))
            draw_die(ui, r, KINDS[slot], showing[slot])
            ui.place(f"die:{slot}", r, ("showing", showing[slot]))
            if chosen:
                pygame.draw.rect(ui.surface, theme.SELECTED, r.inflate(6, 6), 4, border_radius=die // 5)
            word = "KEEP" if chosen else ("ZAP!" if zapped else "")
            if word:
                ui.text(
                    word,
                    (r.centerx, r.bottom + 2),
                    m.small,
                    theme.SELECTED if chosen else theme.BAD,
                    "midtop",
                )
            x += die + m.pad
        y += die + small_line + m.pad
        # boards: the current player's large and tappable, the others compact
        players = view.get("players", [])
        boards = view.get("boards", [])
        chips = view.get("chips", [])
        if me is not None and me < len(boards):
            col = actions.colour(me)
            ui.shape(col.shape, (inner.x + 10, y + small_line // 2), 9, col.rgb)
            c = chips[me] if me < len(chips) else None
            rnd = view.get("round", 1)
            name = ui.text(players[me], (inner.x + 26, y + small_line // 2), m.small, theme.ACCENT, "midleft")
            wordings = [f"Round {rnd}, {c['value']} in chips", f"Round {rnd}, {c['value']} chips",
                        f"{c['value']} chips"] if c else [f"Round {rnd}"]
            info = ui.words_that_fit(wordings, m.small, inner.right - name.right - 12)
            ui.text(info, (inner.right, y + small_line // 2), m.small, theme.MUTED, "midright")
            y += small_line + 2
            h = m.button_h + 4
            cw = (inner.width - 4 * 6) // 5
            for n in range(1, 6):
                r = pygame.Rect(inner.x + (n - 1) * (cw + 6), y, cw, h)
                if phase == "apply":
                    pick = lambda n=n: self._pick_section(n, state, actions)  # noqa: E731
                    ui.add(_die_widget(ui, r, f"section:{n}", pick))
                self._cell(ui, r, n, boards[me][str(n)], True, selected=self.section == n)
                ui.place(f"section:{me}:{n}", r, boards[me][str(n)])
            y += h + m.pad
        others = [i for i in range(len(players)) if i != me]
        if not others:
            return
        h = max(26, min(m.button_h - 8, (inner.bottom - y) // len(others) - 4))
        name_w = min(150, inner.width // 4)
        cw = min(48, (inner.width - name_w - 90) // 5 - 4)
        for i in others:
            if y + h > inner.bottom + 1:
                break
            col = actions.colour(i)
            ui.shape(col.shape, (inner.x + 10, y + h // 2), 8, col.rgb)
            ui.text(players[i], (inner.x + 24, y + h // 2), m.small, theme.TEXT, "midleft", name_w - 26)
            x = inner.x + name_w
            for n in range(1, 6):
                status = boards[i][str(n)] if i < len(boards) else "empty"
                cell = pygame.Rect(x + (n - 1) * (cw + 4), y, cw, h)
                self._cell(ui, cell, n, status, False, False)
                ui.place(f"section:{i}:{n}", cell, status)
            x += 5 * (cw + 4) + 6
            if i < len(chips):
                ui.text(
                    f"{chips[i]['value']} chips",
                    (x, y + h // 2),
                    m.small,
                    theme.MUTED,
                    "midleft",
                    inner.right - x,
                )
            y += h + 4

    def _cell(self, ui: Ui, r: pygame.Rect, n: int, status: str, big: bool, selected: bool) -> None:
        fill = STATUS_FILL.get(status, STATUS_FILL["empty"])
        pygame.draw.rect(ui.surface, fill, r, border_radius=6)
        pygame.draw.rect(
            ui.surface,
            theme.SELECTED if selected else (140, 140, 150),
            r,
            4 if selected else 1,
            border_radius=6,
        )
        text_col = (20, 20, 20) if status == "open" else theme.TEXT
        if status == "closed":  # a cross as well as the colour and the word
            pygame.draw.line(ui.surface, (160, 120, 90), r.topleft, r.bottomright, 2)
            pygame.draw.line(ui.surface, (160, 120, 90), r.bottomleft, r.topright, 2)
        m = ui.metrics
        if big:
            ui.text(str(n), (r.centerx, r.y + 2), m.body, text_col, "midtop")
            ui.text(status, (r.centerx, r.bottom - 2), m.small - 4, text_col, "midbottom", r.width - 2)
        else:
            ui.text(
                f"{n}{status[0].upper() if status != 'empty' else ''}", r.center, m.small, text_col, "center"
            )

    # --- interaction --------------------------------------------------------------------------
    def _keep_move(self, state: GameState) -> KeepMove:
        """The selected dice as a legal keep move: purple dice of one face are interchangeable."""
        showing = getattr(state, "showing", {})
        chosen = [s for s in SLOT_ORDER if s in self.keep]
        purples: dict[str, list[str]] = {}
        for s in SLOT_ORDER:
            if s in showing and s.startswith("purple"):
                purples.setdefault(showing[s], []).append(s)
        canon = [s for s in chosen if not s.startswith("purple")]
        for face, group in purples.items():
            k = sum(1 for s in chosen if s.startswith("purple") and showing[s] == face)
            canon += group[:k]
        return KeepMove(tuple(sorted(canon, key=SLOT_ORDER.index)))

    def _toggle(self, slot: str, state: GameState, actions: TableActions) -> None:
        if slot in self.keep:
            self.keep.discard(slot)
            return
        trial = KeepMove((slot,))
        if getattr(state, "zapped", False):
            actions.why_not(trial)
            return
        self.keep.add(slot)

    def _pick_section(self, n: int, state: GameState, actions: TableActions) -> None:
        self.page = 0
        if self.section == n:
            self.section = None
            return
        moves = [m for m in state.legal_moves() if isinstance(m, ApplyMove) and _touches(m, n)]
        if moves:
            self.section = n
            return
        board = getattr(state, "boards", [[0] * 5])[state.current_player or 0]
        status = board[n - 1]
        intent = (
            ApplyMove(opens=(n,))
            if status == 0
            else ApplyMove(closes=(n,))
            if status == 1
            else ApplyMove(collects=((n, 1),))
        )
        actions.why_not(intent)

    def draw_choices(
        self, ui: Ui, rect: pygame.Rect, state: GameState, moves: Sequence[Move], actions: TableActions
    ) -> None:
        m = ui.metrics
        phase = getattr(state, "phase", "")
        if phase == "decide":
            move = self._keep_move(state)
            n = len(move.slots)
            hint = (
                "ZAP: these dice cannot be kept"
                if getattr(state, "zapped", False)
                else "Tap dice to keep them"
            )
            y = rect.y
            y += (
                ui.paragraph(
                    hint,
                    pygame.Rect(rect.x, y, rect.width, rect.height // 3),
                    m.small,
                    theme.MUTED,
                    max_lines=2,
                )
                + m.pad
            )
            h = min(m.button_h + 20, (rect.bottom - y - m.pad) // 2)
            label = "Roll again" if n else "Roll all again"
            ui.button(
                pygame.Rect(rect.x, y, rect.width, h),
                label,
                lambda: actions.play(move),
                id="rollers:roll",
                sub=(f"keeping {n} dice" if n > 1 else "keeping 1 die") if n else "",
            )
            ui.button(
                pygame.Rect(rect.x, y + h + m.pad, rect.width, h),
                "Stop",
                lambda: actions.play(StopMove()),
                id="rollers:stop",
                sub="apply these dice",
                colour=theme.GO,
            )
            return
        if phase == "apply":
            shown = [
                mv
                for mv in moves
                if isinstance(mv, ApplyMove) and (self.section is None or _touches(mv, self.section))
            ]
            shown.sort(key=lambda mv: (-dice_used(mv), str(mv)))
            hint = f"Moves using the {self.section}s" if self.section else "Tap a section to filter"
            ui.text(hint, (rect.x, rect.y), m.small, theme.MUTED, width=rect.width)
            top = ui.font(m.small).get_linesize() + 4
            area = pygame.Rect(rect.x, rect.y + top, rect.width, rect.height - top)
            key = (self.section, *(str(mv) for mv in shown))
            if key != self._moves_key:
                self._moves_key, self.page = key, 0
            items = [(self.label(mv), (lambda mv=mv: actions.play(mv)), f"move:{mv}") for mv in shown]
            two = m.portrait and rect.width > 500
            pages = apply_pages(ui, area, items) if two else column_pages(ui, area, items)
            if pages is not None:
                self.page = draw_rows(ui, area, pages, self.page, lambda p: setattr(self, "page", p),
                                      2 if two else 1)
                return
            self.page = paged_buttons(ui, area, items, self.page, lambda p: setattr(self, "page", p), lines=3)
            return
        super().draw_choices(ui, rect, state, moves, actions)


Item = tuple[str, Any, str]  # a button: label, action, id


def apply_pages(ui: Ui, area: pygame.Rect, items: Sequence[Item]) -> list[list[list[Item]]] | None:
    """Portrait: the apply moves in pages of two rows of two, in their order, except that a page holds at
    most two labels needing four lines at half the width (a few in a hundred: "Open & close 1s; Open 2s;
    Collect 1s x2 (STAR: 2)"), side by side in its first row: they are spread over the pages. Each row
    is as tall as its labels need, so a page of a four-line row and a three-line row fits the panel
    (:meth:`RollersView.side_height`). None when a label needs more than four lines, or the rows do not
    fit ``area``: the list is paged as any other."""
    m = ui.metrics
    half = (area.width - m.pad) // 2 - 12
    lines = {wid: lines_at_body(ui, label, half) for label, _, wid in items}
    if any(n > 4 for n in lines.values()):
        return None
    pages: list[list[list[Item]]] = []
    waiting = list(items)
    while waiting:
        # the four-line labels spread over the pages left (at most two a page), the rest in order
        talls = [it for it in waiting if lines[it[2]] == 4]
        others = [it for it in waiting if lines[it[2]] != 4]
        quota = min(2, -(-len(talls) // -(-len(waiting) // 4)))
        page = talls[:quota] + others[: 4 - quota]
        page += talls[quota : quota + min(2 - quota, 4 - len(page))]  # too few others left
        for item in page:
            waiting.remove(item)
        page.sort(key=lambda it: items.index(it))  # in the list's order again
        page.sort(key=lambda it: lines[it[2]] != 4)  # the four-line labels share the first row
        pages.append([page[:2], page[2:]] if len(page) > 2 else [page])
    body = ui.font(m.body).get_linesize()
    least = max(m.button_h, m.target)  # buttons are never under 9 mm
    for page in pages:
        height = sum(max(least, max(lines[it[2]] for it in row) * body + 8) for row in page)
        if height + (len(page) - 1) * m.pad + (least + m.pad if len(pages) > 1 else 0) > area.height:
            return None
    return pages


def column_pages(ui: Ui, area: pygame.Rect, items: Sequence[Item]) -> list[list[list[Item]]] | None:
    """Landscape: the apply moves one a row in their order, each row as tall as its label needs (most
    take one or two lines, some three), as many rows a page as fit over the paging row; None when a
    label does not fit the panel's width at 3 mm (the list is paged as any other)."""
    m = ui.metrics
    body = ui.font(m.body).get_linesize()
    least = max(m.button_h, m.target)
    lines = [lines_at_body(ui, label, area.width - 12) for label, _, _ in items]
    if any(n > 4 for n in lines):
        return None
    heights = [max(least, n * body + 8) for n in lines]
    if sum(heights) + m.pad * (len(items) - 1) <= area.height:
        return [[[it] for it in items]]
    room = area.height - least - m.pad  # over the paging row
    pages: list[list[list[Item]]] = []
    used = room + 1
    for item, h in zip(items, heights, strict=True):
        if used + h > room:
            pages.append([])
            used = -m.pad
        pages[-1].append([item])
        used += h + m.pad
    return pages


def draw_rows(ui: Ui, area: pygame.Rect, pages: list[list[list[Item]]], page: int, set_page,
              cols: int = 2) -> int:
    """One page of :func:`apply_pages` or :func:`column_pages` (rows of ``cols`` buttons, each row as
    tall as its labels need) and, when there are more, the paging row under it. Returns the page."""
    m = ui.metrics
    page = min(max(page, 0), len(pages) - 1)
    bw = (area.width - (cols - 1) * m.pad) // cols
    body = ui.font(m.body).get_linesize()
    least = max(m.button_h, m.target)
    y = area.y
    for row in pages[page]:
        need = max(lines_at_body(ui, label, bw - 12) for label, _, _ in row)
        h = max(least, need * body + 8)
        for c, (label, action, wid) in enumerate(row):
            r = pygame.Rect(area.x + c * (bw + m.pad), y, bw, h)
            ui.button(r, label, action, id=wid, size=label_size(ui, label, bw - 12, h - 4))
        y += h + m.pad
    if len(pages) > 1:
        ph = least
        py = area.bottom - ph
        third = (area.width - 2 * m.pad) // 3
        ui.button(pygame.Rect(area.x, py, third, ph), "Prev", lambda: set_page(page - 1), enabled=page > 0,
                  id="page:prev")
        ui.text(f"{page + 1} of {len(pages)}", (area.x + third + m.pad + third // 2, py + ph // 2), m.small,
                theme.MUTED, "center")
        ui.button(pygame.Rect(area.right - third, py, third, ph), "Next", lambda: set_page(page + 1),
                  enabled=page < len(pages) - 1, id="page:next")
    return page


def _touches(m: ApplyMove, n: int) -> bool:
    return n in m.opens or n in m.closes or any(s == n for s, _ in m.collects)


def _die_widget(ui: Ui, rect: pygame.Rect, wid: str, action):
    from ui.widgets import Widget

    r = pygame.Rect(rect)
    if r.width < theme.MIN_TARGET or r.height < theme.MIN_TARGET:
        r = r.inflate(max(0, theme.MIN_TARGET - r.width), max(0, theme.MIN_TARGET - r.height))
    return Widget(r, wid, action, True, wid, kind="tile")


VIEW = RollersView
