"""Drive the real app by posting mouse events, as a finger would (tests, benchmarks, demos)."""

from __future__ import annotations

import time

import pygame

from companion.protocol import DrawCards, RollDice
from ui.app import App
from ui.widgets import Widget


class Driver:
    def __init__(self, app: App) -> None:
        self.app = app
        if app.frames == 0:
            app.step()

    def ids(self) -> list[str]:
        return [w.id for w in self.app.ui.widgets]

    def find(self, wid: str) -> Widget | None:
        return self.app.ui.find(wid)

    def tap_at(self, pos: tuple[int, int]) -> None:
        """A tap at logical ``pos``: finger down, a frame, finger up, a frame."""
        win = self.app.to_window(pos)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=win, button=1, touch=True))
        self.app.step()
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=win, button=1, touch=True))
        self.app.step()

    def tap(self, wid: str) -> None:
        w = self.find(wid)
        if w is None:
            raise LookupError(f"no widget {wid!r} on {self.app.screen.name}; there are: {self.ids()}")
        if not w.enabled:
            raise LookupError(f"widget {wid!r} is disabled")
        self.tap_at(w.rect.center)

    def wait_read(self, timeout: float = 60.0) -> int:
        """Step the app until no read is in flight and the finished one has been taken by the screen;
        returns the frames stepped. Blocks on the reader's ``wait`` (if it has one) between frames, so
        no frame is spent spinning; ``timeout`` only guards against a read that never ends."""
        reader = self.app.reader
        wait = getattr(reader, "wait", None)
        deadline = time.monotonic() + timeout
        steps = 0
        while reader.reading:
            if time.monotonic() > deadline:
                raise TimeoutError(f"a read still in flight after {timeout:.0f} s")
            if wait is not None:
                wait(min(0.5, max(0.0, deadline - time.monotonic())))
            self.app.step()
            steps += 1
        self.app.step()  # one frame more: the result is on screen
        return steps + 1

    def choose(self, move_text: str, limit: int = 200) -> None:
        """Play the move written ``move_text`` from a (possibly grouped, paged) list of moves."""
        words = move_text.split()
        for _ in range(limit):
            if self.find(f"move:{move_text}") is not None:
                self.tap(f"move:{move_text}")
                return
            groups = [w for w in self.app.ui.widgets if w.id.startswith("group:") and w.id != "group:back"]
            fit = [w for w in groups if words[: len(w.id[6:].split())] == w.id[6:].split()]
            if fit:
                self.tap(max(fit, key=lambda w: len(w.id)).id)
                continue
            nxt = self.find("page:next")
            if nxt is not None and nxt.enabled:
                self.tap("page:next")
                continue
            if self.find("group:back") is not None:
                self.tap("group:back")
                continue
            break
        raise LookupError(f"move {move_text!r} cannot be reached on {self.app.screen.name}")

    def tap_paged(self, wid: str, limit: int = 60) -> None:
        """Tap ``wid``, paging forward (from the first page) through a list until it shows."""
        for _ in range(limit):
            if self.find("page:prev") is None or not self.find("page:prev").enabled:
                break
            self.tap("page:prev")
        for _ in range(limit):
            if self.find(wid) is not None:
                self.tap(wid)
                return
            nxt = self.find("page:next")
            if nxt is None or not nxt.enabled:
                break
            self.tap("page:next")
        raise LookupError(f"{wid!r} not found on any page of {self.app.screen.name}")

    def new_game(self, game_id: str, players: int = 2) -> None:
        """From the home screen, start ``game_id`` for ``players`` players (the names offered) with
        its default options: the app ends on the table (or wherever the new game screen led)."""
        self.tap("home:new")
        self.tap_paged(f"game:{game_id}")
        for _ in range(players - 2):
            self.tap("players:add")
        while self.app.screen.name == "newgame":
            self.tap("newgame:next")

    def answer_chance(self) -> str | None:
        """Answer what the table asks of chance, as players do: read the dice and confirm them, or turn
        random cards (simulated camera) and confirm. Returns "roll", "draw", or None for a choice."""
        req = self.app.screen.game.state.request()
        if isinstance(req, RollDice):
            self.tap("dice:read")
            self.wait_read()
            self.tap("dice:confirm")
            return "roll"
        if isinstance(req, DrawCards):
            self.tap("cards:random")
            self.tap("cards:confirm")
            return "draw"
        return None
