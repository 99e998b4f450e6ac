"""The contract between the table screen and a game's view."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import pygame

from companion.protocol import GameInfo, GameState, Move
from ui import theme
from ui.theme import PlayerColour
from ui.widgets import Ui


def die_name(slot: str) -> str:
    """A die's slot as players say it: "purple-1" is "purple 1", "die1" is "die 1"."""
    return re.sub(r"(?<=[a-z])(?=\d)", " ", slot.replace("-", " "))


def slot_name(slot: str, players: tuple[str, ...]) -> str:
    """A die's slot as players say it, a player's die ("player2", "p2") by the player's name."""
    m = re.fullmatch(r"(?:player|p)(\d+)", slot)
    if m and 0 < int(m.group(1)) <= len(players):
        return players[int(m.group(1)) - 1]
    return die_name(slot)


class TableActions(Protocol):
    """What a view may ask of the table screen."""

    def play(self, move: Move) -> bool:
        """Play ``move``; if the rules refuse it, the 'why not?' answer is shown and False returned."""

    def why_not(self, move: Move) -> None:
        """Show why ``move`` is refused now (rule and reason), or that it is legal."""

    def say(self, text: str) -> None:
        """A short note in the message line."""

    def colour(self, player: int) -> PlayerColour: ...


class Finger(Protocol):
    """Taps on the drawn screen by widget id, as :class:`ui.driver.Driver` makes them (demo, tests)."""

    def tap(self, wid: str) -> None: ...

    def find(self, wid: str) -> Any: ...

    def tap_paged(self, wid: str) -> None: ...

    def choose(self, move_text: str) -> None: ...


class GameView:
    """Draws one game. Subclasses override :meth:`draw_board`, and usually :meth:`describe` and
    :meth:`draw_choices`; the defaults work for any game."""

    def __init__(self, info: GameInfo) -> None:
        self.info = info
        self.page = 0
        self.prefix: tuple[str, ...] = ()  # the words chosen so far when moves are grouped
        self._moves_key: tuple = ()
        # a button the list puts in its bottom row, between Prev and Next (portrait: a row more for moves)
        self.middle: tuple[str, Callable[[], Any], str] | None = None

    def reset(self) -> None:
        """The state changed: drop selections."""
        self.page = 0
        self.prefix = ()

    # --- words --------------------------------------------------------------------------------
    def describe(self, move: Move) -> str:
        """The move in words (the history, the undo note, a 'why not' answer)."""
        return str(move)

    def phrases(self, move: Move) -> tuple[str, ...]:
        """The move's words in phrases, each kept whole on one line of its button, so that a long move
        reads as a title and its detail ("Write 3" / "in UP, space 2"), never broken mid-phrase. A view
        that writes phrases says :meth:`describe` as them joined by spaces."""
        return (self.describe(move),)

    def label(self, move: Move) -> str:
        """The move's button label: its phrases, newline-separated (:meth:`ui.widgets.Ui.phrase_lines`)."""
        return "\n".join(self.phrases(move))

    def score_note(self, view: dict[str, Any], player: int) -> str | tuple[str, ...]:
        """A short line under each player's score in the score panel (e.g. chips); or its wordings,
        fullest first, of which the table draws the first that fits."""
        return ""

    # --- playing by taps -----------------------------------------------------------------------
    def tap_move(self, finger: Finger, move: Move, state: GameState) -> None:
        """Play ``move`` with ``finger`` the way a player would on this view (the headless demo uses
        it). The default reaches it through the list of moves; views with their own buttons override."""
        finger.choose(str(move))

    rolls_settle_moves = False  # a throw just after a move settles it (a shot): its outline stays

    def touched(self, move: Move, player: int, before: dict[str, Any], changed: list[str]) -> list[str]:
        """The places (named with :meth:`ui.widgets.Ui.place`) to outline after ``player``'s ``move``;
        ``before`` is the game's view before it, ``changed`` the places whose state it changed, which are
        the default. A view adds places the move acted on though they hold the same (the ball a shot is
        played from) or keeps to the move's own places when it changed the whole board."""
        return changed

    def focus(self, player: int | None) -> None:
        """Draw the board as ``player`` (the last move's mover) sees it, e.g. their own sheet; by
        default the board looks the same to everyone."""

    # --- drawing ------------------------------------------------------------------------------
    def side_height(self, ui: Ui, state: GameState) -> int | None:
        """Portrait: the height the view's choices need in the side panel, the same in every state (None:
        what the layout gives)."""
        return None

    def draws_cards(self, deck: str) -> bool:
        """Whether :meth:`card_picture` draws the cards of ``deck`` (else they are listed by name)."""
        return False

    def card_name(self, deck: str, card: str) -> str:
        """A card of ``deck`` named as printed on it, for the list of cards to tap (else its id)."""
        return card

    def card_picture(self, ui: Ui, rect: pygame.Rect, deck: str, card: str) -> None:
        """A card of ``deck`` as the players see it, drawn inside ``rect`` (a tile to tap)."""
        ui.text(card, rect.center, ui.metrics.small, theme.TEXT, "center", rect.width)

    def draw_board(
        self, ui: Ui, rect: pygame.Rect, state: GameState, view: dict[str, Any], actions: TableActions
    ) -> None:
        raise NotImplementedError

    def draw_choices(
        self, ui: Ui, rect: pygame.Rect, state: GameState, moves: Sequence[Move], actions: TableActions
    ) -> None:
        """The legal moves as tappable buttons. When they do not fit on one page they are grouped by the
        words they start with ("aim 6 ..."), so hundreds of moves take a few taps, not many pages."""
        key = tuple(str(m) for m in moves)
        if key != self._moves_key:
            self._moves_key, self.page, self.prefix = key, 0, ()
        words = {m: str(m).split() for m in moves}
        fits = list_capacity(ui, rect, self.middle)
        prefix = self.prefix
        while True:
            chosen = [mv for mv in moves if tuple(words[mv][: len(prefix)]) == prefix]
            groups: dict[str, int] = {}
            exact = []
            for mv in chosen:
                rest = words[mv][len(prefix) :]
                if rest:
                    groups[rest[0]] = groups.get(rest[0], 0) + 1
                else:
                    exact.append(mv)
            if len(chosen) <= fits or not groups:
                break
            if len(groups) == 1 and not exact:  # every move goes on the same way: skip the needless tap
                prefix = (*prefix, next(iter(groups)))
                continue
            break
        # groups are worth a tap when they fill a page; two or three groups would show a near-empty page
        plain = len(chosen) <= fits or not groups or len(groups) + len(exact) < min(4, fits)
        items: list[tuple[str, Callable[[], Any], str]] = []
        if self.prefix:
            items.append(("< All moves", self._set_prefix(()), "group:back"))
        if plain:
            items += [(self.label(mv), (lambda mv=mv: actions.play(mv)), f"move:{mv}") for mv in chosen]
        else:
            items += [(self.label(mv), (lambda mv=mv: actions.play(mv)), f"move:{mv}") for mv in exact]
            for word, count in groups.items():
                label = " ".join((*prefix, word))
                if count == 1:  # a group of one move costs a tap for nothing: the move itself
                    mv = next(mv for mv in chosen if words[mv][len(prefix) : len(prefix) + 1] == [word])
                    items.append((self.label(mv), (lambda mv=mv: actions.play(mv)), f"move:{mv}"))
                    continue
                items.append((f"{label} ... ({count})", self._set_prefix((*prefix, word)), "group:" + label))
        self.page = paged_buttons(ui, rect, items, self.page, lambda p: setattr(self, "page", p),
                                  middle=self.middle)

    def _set_prefix(self, prefix: tuple[str, ...]) -> Callable[[], None]:
        def go() -> None:
            self.prefix, self.page = prefix, 0

        return go


def capacity(ui: Ui, rect: pygame.Rect, columns: int | None = None, height: int | None = None) -> int:
    """How many buttons :func:`paged_buttons` shows on one page of ``rect`` without paging."""
    m = ui.metrics
    h = max(height or m.button_h, m.target)  # buttons are never under 9 mm
    cols = columns or (2 if m.portrait and rect.width > 500 else 1)
    return max(1, (rect.height + m.pad) // (h + m.pad)) * cols


def list_capacity(ui: Ui, rect: pygame.Rect, middle: object | None = None) -> int:
    """:func:`capacity` of ``rect`` less the bottom row a ``middle`` button takes."""
    if middle is None:
        return capacity(ui, rect)
    m = ui.metrics
    return capacity(ui, pygame.Rect(rect.x, rect.y, rect.width, rect.height - m.button_h - m.pad))


def label_size(ui: Ui, label: str, width: int, height: int) -> int:
    """The body size (moves read at 3 mm) when the label fits the button on its lines (its phrases
    whole, or wrapped), else the small size (a word wider than the button)."""
    m = ui.metrics
    lines = lines_at_body(ui, label, width)
    return m.body if lines < 99 and lines * ui.font(m.body).get_linesize() <= height else m.small


def one_line_size(ui: Ui, label: str, width: int) -> int | None:
    """The body size (3 mm capitals) when ``label`` fits ``width`` on one line, else None."""
    m = ui.metrics
    return m.body if ui.font(m.body).size(label.replace("\n", " "))[0] <= width else None


def lines_at_body(ui: Ui, label: str, width: int) -> int:
    """How many lines ``label`` takes in ``width`` at the body size: its phrases (newline-separated)
    packed whole, else wrapped at spaces; a big number when a word is wider than that."""
    phrased = ui.phrase_lines(label, ui.metrics.body, width)
    if phrased is not None:
        return len(phrased)
    font = ui.font(ui.metrics.body)
    lines = ui.wrap(label.replace("\n", " "), ui.metrics.body, width)
    return len(lines) if all(font.size(line)[0] <= width for line in lines) else 99


def columns_for(
    ui: Ui,
    rect: pygame.Rect,
    items: Sequence[tuple[str, Callable[[], Any], str]],
    columns: int | None,
    lines: int = 2,
) -> int:
    """``columns`` if given; else two in portrait when every label takes at most ``lines`` lines of half
    the width at 3 mm (its phrases whole), else one."""
    if columns is not None:
        return columns
    m = ui.metrics
    half = (rect.width - m.pad) // 2 - 12
    two = m.portrait and rect.width > 500
    return 2 if two and all(lines_at_body(ui, label, half) <= lines for label, _, _ in items) else 1


def paged_buttons(
    ui: Ui,
    rect: pygame.Rect,
    items: Sequence[tuple[str, Callable[[], Any], str]],
    page: int,
    set_page: Callable[[int], None],
    columns: int | None = None,
    height: int | None = None,
    middle: tuple[str, Callable[[], Any], str] | None = None,
    lines: int = 2,
) -> int:
    """Buttons in a grid filling ``rect``, with Prev/Next when they do not all fit. Returns the page.
    ``middle`` (label, action, id) is a button on the bottom row, between Prev and Next when paged (the
    page count under its label), else the row's whole width. In portrait the grid has two columns when
    every label takes at most ``lines`` lines of half the width."""
    m = ui.metrics
    if middle is not None:
        return _paged_with_middle(ui, rect, items, page, set_page, columns, height, middle)
    h = max(height or m.button_h, m.target)  # buttons are never under 9 mm
    cols = columns_for(ui, rect, items, columns, lines)
    bw = (rect.width - (cols - 1) * m.pad) // cols
    ph = h  # the paging row: 9 mm, however tall the moves' rows
    # rows tall enough for every label whole at 3 mm: its phrases on lines, else wrapped
    body = ui.font(m.body)
    need = max((min(lines_at_body(ui, label, bw - 12), max(3, lines)) for label, _, _ in items), default=1)
    h = max(h, need * body.get_linesize() + 8) if need > 1 else h
    rows = max(1, (rect.height + m.pad) // (h + m.pad))
    per_page = rows * cols
    if len(items) > per_page and (rect.height - ph) // (h + m.pad) < 1:
        return _one_row_paged(ui, rect, items, page, set_page, h)
    if len(items) > per_page:
        rows = max(1, (rect.height - ph) // (h + m.pad))  # keep a row for the paging buttons
        per_page = rows * cols
    pages = max(1, -(-len(items) // per_page))
    page = min(max(page, 0), pages - 1)
    for k, (label, action, wid) in enumerate(items[page * per_page : (page + 1) * per_page]):
        r, c = divmod(k, cols)
        ui.button(
            pygame.Rect(rect.x + c * (bw + m.pad), rect.y + r * (h + m.pad), bw, h),
            label,
            action,
            id=wid,
            size=label_size(ui, label, bw - 12, h - 4),
        )
    if pages > 1:
        y, h = rect.bottom - ph, ph
        third = (rect.width - 2 * m.pad) // 3
        ui.button(
            pygame.Rect(rect.x, y, third, h),
            "Prev",
            lambda: set_page(page - 1),
            enabled=page > 0,
            id="page:prev",
        )
        ui.text(
            f"{page + 1} of {pages}",
            (rect.x + third + m.pad + third // 2, y + h // 2),
            m.small,
            theme.MUTED,
            "center",
        )
        ui.button(
            pygame.Rect(rect.right - third, y, third, h),
            "Next",
            lambda: set_page(page + 1),
            enabled=page < pages - 1,
            id="page:next",
        )
    return page


def _one_row_paged(
    ui: Ui,
    rect: pygame.Rect,
    items: Sequence[tuple[str, Callable[[], Any], str]],
    page: int,
    set_page: Callable[[int], None],
    h: int,
) -> int:
    """Room for one row only: ``<`` and ``>`` either side of one item a page (not a row of paging
    buttons laid over the items)."""
    m = ui.metrics
    t = m.target
    page = min(max(page, 0), len(items) - 1)
    label, action, wid = items[page]
    bw = rect.width - 2 * (t + m.pad)
    lines = lines_at_body(ui, label, bw - 12)
    bh = max(h, lines * ui.font(m.body).get_linesize() + 8) if lines < 99 else h
    bh = min(bh, max(h, rect.height))
    ui.button(pygame.Rect(rect.x, rect.y, t, bh), "<", lambda: set_page(page - 1), enabled=page > 0,
              id="page:prev")
    ui.button(pygame.Rect(rect.x + t + m.pad, rect.y, bw, bh), label, action, id=wid,
              size=label_size(ui, label, bw - 12, bh - 4))
    ui.button(pygame.Rect(rect.right - t, rect.y, t, bh), ">", lambda: set_page(page + 1),
              enabled=page < len(items) - 1, id="page:next")
    return page


def grid_page(
    ui: Ui,
    grid: pygame.Rect,
    items: Sequence[tuple[str, Callable[[], Any], str]],
    page: int,
    columns: int | None = None,
    height: int | None = None,
) -> tuple[int, int]:
    """One page of ``items`` as buttons filling ``grid``, sized as :func:`paged_buttons` sizes them,
    with no paging row (the caller pages them from a row of its own); returns (page, pages)."""
    m = ui.metrics
    ph = max(height or m.button_h, m.target)
    cols = columns_for(ui, grid, items, columns)
    bw = (grid.width - (cols - 1) * m.pad) // cols
    need = max((min(lines_at_body(ui, label, bw - 12), 3) for label, _, _ in items), default=1)
    h = max(ph, need * ui.font(m.body).get_linesize() + 8) if need > 1 else ph  # as the grid sizes them
    per_page = capacity(ui, grid, cols, h)
    pages = max(1, -(-len(items) // per_page))
    page = min(max(page, 0), pages - 1)
    shown = items[page * per_page : (page + 1) * per_page]
    # everything shown fits one page, so the grid draws no paging row of its own
    paged_buttons(ui, grid, shown, 0, lambda p: None, cols, h)
    return page, pages


def _paged_with_middle(
    ui: Ui,
    rect: pygame.Rect,
    items: Sequence[tuple[str, Callable[[], Any], str]],
    page: int,
    set_page: Callable[[int], None],
    columns: int | None,
    height: int | None,
    middle: tuple[str, Callable[[], Any], str],
) -> int:
    m = ui.metrics
    ph = max(height or m.button_h, m.target)  # the bottom row: 9 mm
    grid = pygame.Rect(rect.x, rect.y, rect.width, rect.height - ph - m.pad)
    page, pages = grid_page(ui, grid, items, page, columns, ph)
    label, action, wid = middle
    y, h = rect.bottom - ph, ph
    if pages == 1:
        ui.button(pygame.Rect(rect.x, y, rect.width, h), label, action, id=wid, size=m.small)
        return page
    third = (rect.width - 2 * m.pad) // 3
    ui.button(pygame.Rect(rect.x, y, third, h), "Prev", lambda: set_page(page - 1), enabled=page > 0,
              id="page:prev")
    ui.button(pygame.Rect(rect.x + third + m.pad, y, rect.width - 2 * third - 2 * m.pad, h), label, action,
              id=wid, size=m.small, sub=f"{page + 1} of {pages}")
    ui.button(pygame.Rect(rect.right - third, y, third, h), "Next", lambda: set_page(page + 1),
              enabled=page < pages - 1, id="page:next")
    return page
