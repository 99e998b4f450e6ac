"""Plays scripted games into a games database until it is killed (used by tests/test_pi_crash.py).

    python tests/crash_worker.py DB GAMES SEED CONFIRMED

On start it resumes the unfinished game in DB (as the app does after a power cut), else starts the next
game of GAMES (comma-separated ids) in turn. Each action (roll, draw, move, undo, correction) goes
through companion.session.Game into companion.store.Store; once the store has committed it, a line
``game_id seq event-digest view-digest`` is appended to CONFIRMED with one write(2), so everything in
CONFIRMED was confirmed to the table before the process died. Lines starting with ``#`` (after an
empty line, which ends any line a kill tore) say that a game is (again) in play.

``pig`` is a tiny dice game defined here so the machinery is exercised before the five games land; the
real games come from companion.games.all_games().
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys
from dataclasses import dataclass
from typing import Any

from companion import record
from companion.errors import IllegalMove, RecordError, RuleError
from companion.games import get_game
from companion.protocol import (
    ChooseMove,
    DieSpec,
    DrawCards,
    GameInfo,
    GameOver,
    GameState,
    Move,
    Roll,
    RollDice,
)
from companion.session import Game
from companion.sim import random_draw, random_roll
from companion.store import Store, StoreError

# --- pig: roll a d6 as often as you dare; a 1 loses the turn's points; first to 30 wins ---------------


@dataclass(frozen=True, slots=True)
class PigMove(Move):
    hold: bool

    def __str__(self) -> str:
        return "hold" if self.hold else "roll"

    @classmethod
    def parse(cls, text: str) -> PigMove:
        if text not in ("hold", "roll"):
            raise IllegalMove("Moves", f"{text!r} is not a move of pig (hold or roll)")
        return cls(text == "hold")


class Pig(GameState):
    GOAL = 30

    def __init__(self, players: tuple[str, ...], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.banked = [0] * len(players)
        self.turn = 0
        self.pot = 0
        self.must_roll = True

    def request(self):
        winners = tuple(i for i, s in enumerate(self.banked) if s >= self.GOAL)
        if winners:
            return GameOver(winners, f"{self.players[winners[0]]} wins")
        who = self.players[self.turn]
        if self.must_roll:
            return RollDice(self.turn, (DieSpec("die", "d6"),), f"{who}: roll ({self.pot} in the pot)")
        return ChooseMove(self.turn, f"{who}: hold {self.pot} or roll again")

    def legal_moves(self):
        return [PigMove(True), PigMove(False)] if isinstance(self.request(), ChooseMove) else []

    def apply(self, move: Move) -> None:
        if not isinstance(self.request(), ChooseMove) or not isinstance(move, PigMove):
            raise IllegalMove("Pig", "no move now")
        if move.hold:
            self.banked[self.turn] += self.pot
            if self.banked[self.turn] < self.GOAL:
                self._next()
        else:
            self.must_roll = True

    def _next(self) -> None:
        self.turn = (self.turn + 1) % len(self.players)
        self.pot = 0
        self.must_roll = True

    def _on_roll(self, roll: Roll) -> None:
        face = int(roll.faces()["die"])
        if face == 1:
            self._next()
        else:
            self.pot += face
            self.must_roll = False

    def parse_move(self, text: str) -> Move:
        return PigMove.parse(text)

    def scores(self) -> tuple[float, ...]:
        return tuple(float(s) for s in self.banked)

    def view(self) -> dict[str, Any]:
        return {**super().view(), "banked": list(self.banked), "pot": self.pot}


PIG = GameInfo("pig", "Pig (test game)", 2, 4, (), Pig)
Pig.info = PIG


def register_pig() -> None:
    """Make ``pig`` playable through companion.games (the registry caches its dict of games)."""
    from companion.games import all_games

    all_games()[PIG.id] = PIG


def unregister_pig() -> None:
    from companion.games import all_games

    all_games().pop(PIG.id, None)


# --- the scripted table ------------------------------------------------------------------------

# Random play rarely ends a real game (a random Rollers game takes 20,000+ actions): after this many
# events the table moves on to the next game, so every game is played, killed and resumed many times.
GAME_LIMIT = 200


def act(game: Game, rng: random.Random, asked: dict[int, RollDice]) -> bool:
    """One action at the table; False if it was refused (nothing changed).

    ``asked`` remembers the request each roll answered (record position -> RollDice), so that a
    correction re-rolls the same dice."""
    state = game.state
    req = state.request()
    r = rng.random()
    in_force = [i for i, a in game.actions() if isinstance(a, record.RollEvent) and i in asked]
    try:
        if r < 0.04 and game.actions():
            game.undo()
        elif r < 0.07 and in_force:
            game.amend(in_force[-1], record.RollEvent(random_roll(asked[in_force[-1]], rng)))
        elif isinstance(req, RollDice):
            game.roll(random_roll(req, rng), evidence=f"frame-{rng.randrange(10**6)}.jpg")
            asked[len(game.events) - 1] = req
        elif isinstance(req, DrawCards):
            game.draw(random_draw(req, rng))
        elif isinstance(req, ChooseMove):
            game.move(rng.choice(list(state.legal_moves())))
        else:
            return False
    except (RuleError, RecordError):
        return False  # e.g. a correction that a later move no longer fits: refused, nothing changed
    return True


def digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()


def confirm(fd: int, gid: int, game: Game) -> None:
    """One short line (well under a page, so a kill cannot tear it): game, seq, digests of the event and
    of the view the table now shows."""
    seq = len(game.events) - 1
    event = digest(record.to_json(game.events[-1]))
    os.write(fd, f"{gid} {seq} {event} {digest(game.state.view())}\n".encode())


def main(argv: list[str]) -> int:
    """Plays until killed; with ``$CRASH_WORKER_STORE=safe`` it uses the app's SafeStore and, when saving
    fails (a full disk), prints the message and exits with status 3."""
    db, games_csv, seed, confirmed = argv
    register_pig()
    fd = os.open(confirmed, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    if os.environ.get("CRASH_WORKER_STORE") == "safe":
        from dice_companion.storage import open_store

        try:
            play(open_store(db).store, games_csv.split(","), seed, fd)
        except StoreError as exc:
            print(exc, file=sys.stderr)
            return 3
    play(Store(db), games_csv.split(","), seed, fd)
    return 0


def play(store: Store, games: list[str], seed: str, fd: int) -> None:
    while True:
        saved = store.games()
        unfinished = [g for g in saved if not g.finished]
        if unfinished:
            gid = unfinished[0].id
            game = store.resume(gid)
        else:
            game_id = games[len(saved) % len(games)]
            info = get_game(game_id)
            players = [f"P{i}" for i in range(max(2, info.min_players))]
            gid, game = store.create(game_id, players)
            confirm(fd, gid, game)
        os.write(fd, f"\n# {os.getpid()} playing game {gid} from event {len(game.events)}\n".encode())
        rng = random.Random(f"{seed}:{gid}:{len(game.events)}")
        asked: dict[int, RollDice] = {}
        while not game.state.is_over and len(game.events) < GAME_LIMIT:
            if act(game, rng, asked):
                confirm(fd, gid, game)
        store.mark_finished(gid)


def zygote(argv: list[str]) -> int:
    """``--zygote DB GAMES CONFIRMED``: imports everything once, then for each seed read from stdin forks
    a player (printing its pid) and reports how it ended (``ended <exit code>``, -9 when killed).

    Forking from a warm, single-threaded process makes a restart take milliseconds instead of a Python
    start-up, so 100+ kills fit in the test's time; each player is still its own process, killed
    outright, with its own database connection opened after the fork."""
    db, games_csv, confirmed = argv
    register_pig()
    from companion.games import all_games

    all_games()  # import every game before forking
    for line in sys.stdin:
        pid = os.fork()
        if pid == 0:
            try:
                sys.stdin.close()
                main([db, games_csv, line.strip(), confirmed])
            except BaseException:
                import traceback

                traceback.print_exc()
            finally:
                os._exit(1)
        print(pid, flush=True)
        _, status = os.waitpid(pid, 0)
        print("ended", os.waitstatus_to_exitcode(status), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(zygote(sys.argv[2:]) if sys.argv[1:2] == ["--zygote"] else main(sys.argv[1:]))
