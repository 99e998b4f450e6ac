"""The ``dice-companion`` command: the composition root wiring core, vision, hardware and ui."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

from companion import record
from companion.errors import CompanionError, RecordError
from companion.games import all_games, get_game
from companion.referee import printable
from companion.regular_file import read_regular_file
from companion.store import Store, StoreError
from dice_companion.device import EX_CONFIG, open_device
from dice_companion.storage import DataDirError, open_store
from hardware.config import SIDE_MAX, SIDE_MIN, ConfigError, parse_size
from vision import commands as vision_commands


def default_db() -> Path:
    """The games database: ``$DICE_COMPANION_DATA/games.sqlite3`` or the XDG data directory."""
    base = os.environ.get("DICE_COMPANION_DATA") or os.environ.get("STATE_DIRECTORY")
    if not base:
        xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        base = str(Path(xdg) / "dice-companion")
    return Path(base) / "games.sqlite3"


def _open_store(args: argparse.Namespace) -> Store:
    """The games database; a damaged file is set aside (and said so) rather than refused."""
    opened = open_store(args.db or default_db())
    if opened.notice:
        print(opened.notice, file=sys.stderr)
    return opened.store


# --- commands -------------------------------------------------------------------------------


def cmd_play(args: argparse.Namespace) -> int:
    """Play a game in the terminal with simulated dice and players, saved like any other."""
    from ui.terminal import play

    info = get_game(args.game)
    default_players = ["Anna", "Ben", "Chloe", "Dan"][: max(2, info.min_players)]
    players = args.players.split(",") if args.players else default_players
    with _open_store(args) as store:
        if args.resume is not None:
            game = store.resume(args.resume)
            gid = args.resume
        else:
            gid, game = store.create(info.id, players, dict(args.option))
        play(game, random.Random(args.seed), sys.stdout)
        store.mark_finished(gid, game.state.is_over)
        print(f"saved as game {gid} in {store.path}")
    return 0


def _size(text: str) -> tuple[int, int]:
    size = parse_size(text)
    if size is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 800x480 (each side "
                                          f"{SIDE_MIN}-{SIDE_MAX} pixels)")
    return size


def _option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    return key, value


def _headless(args: argparse.Namespace) -> bool:
    """No screen at all and nothing asked for: the app then plays a game by itself and says so."""
    return not (args.fullscreen or args.frames is not None or os.environ.get("SDL_VIDEODRIVER")
                or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def cmd_run(args: argparse.Namespace) -> int:
    """The main job: the touchscreen app with the device's configuration, controls and watchdog.

    Without any display it drives the same app headless through a complete game (simulated camera
    and players), printing each prompt, read and move and saving screenshots.
    """
    from dice_companion.camera import reader_for
    from dice_companion.setup import setup_for
    from ui.app import run_app
    from ui.settings import Settings

    try:
        dev = open_device(db=args.db)
    except (ConfigError, DataDirError) as exc:
        print(f"dice-companion: {exc}", file=sys.stderr)
        return EX_CONFIG
    try:
        if dev.notice:
            print(dev.notice, file=sys.stderr)
        data = dev.data_dir
        if _headless(args):
            from ui.demo import show

            os.environ["SDL_VIDEODRIVER"] = "dummy"
            os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
            dev.notifier.ready("playing headless")
            shots = data / "screens"
            show(dev.store, sys.stdout, args.game, seed=args.seed, shots=shots, size=args.size or (800, 480))
            print(f"screenshots in {shots}; on a machine with a screen the app opens in a window")
            return 0
        reader = reader_for(dev.config.camera, args.camera, args.seed, data_dir=data)
        first = [True]

        def on_frame() -> None:
            if first[0]:
                dev.notifier.ready("playing")
                first[0] = False
            dev.notifier.frame()

        display = dev.config.display
        fullscreen = display.fullscreen if args.fullscreen is None else args.fullscreen
        size = args.size or parse_size(display.size)  # None ("auto"): the screen's own size
        settings = Settings.load(data / "ui-settings.json", rotation=display.rotation)
        run_app(dev.store, reader, size, fullscreen, max_frames=args.frames, settings=settings,
                evidence_dir=data / "photos", controls=dev.controls, on_frame=on_frame,
                setup=setup_for(reader, data))
        if hasattr(reader, "close"):
            reader.close()
        return 0
    finally:
        dev.close()


def cmd_games(args: argparse.Namespace) -> int:
    with _open_store(args) as store:
        if args.delete is not None:
            return _delete_game(store, args.delete, args.yes)
        saved = store.games()
        for problem in store.problems:  # a game whose row cannot be read: left out, the rest listed
            print(f"dice-companion: {printable(problem)}", file=sys.stderr)
        if args.json:
            for g in saved:
                print(json.dumps({"id": g.id, "game": g.game, "players": list(g.players),
                                  "created": g.created, "updated": g.updated,
                                  "finished": g.finished, "events": g.events}))
            return 0
        if not saved:
            print(f"no saved games in {store.path}")
        for g in saved:
            status = "finished" if g.finished else "in progress"
            print(f"{g.id:>4}  {g.game:<14} {', '.join(g.players):<30} {g.events:>5} events  "
                  f"{status:<11}  {g.updated}")
    return 0


def _delete_game(store: Store, gid: int, yes: bool) -> int:
    """Delete a saved game after asking (``--yes`` answers for scripts)."""
    found = next((g for g in store.games() if g.id == gid), None)
    if found is None:
        print(f"dice-companion: no saved game with id {gid}", file=sys.stderr)
        return 2
    if not yes:
        what = f"{found.game}: {', '.join(found.players)}, {found.events} events"
        answer = input(f"Delete game {gid} ({what})? Type yes to delete: ")
        if answer.strip().lower() != "yes":
            print("kept")
            return 1
    store.delete(gid)
    print(f"deleted game {gid}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    with _open_store(args) as store:
        sys.stdout.write(store.export(args.id))
    return 0


def cmd_referee(args: argparse.Namespace) -> int:
    from companion.referee import judge

    try:
        text = read_regular_file(args.record, record.MAX_RECORD_BYTES).decode("utf-8")
    except OSError as exc:
        return _fail(args, 2, f"cannot read {args.record}: {exc.strerror or exc}")
    except (ValueError, UnicodeDecodeError) as exc:
        return _fail(args, 2, f"cannot read {args.record}: {exc}")
    try:
        events = record.loads(text)
    except RecordError as exc:
        return _fail(args, 2, f"{args.record}: {exc}", line=exc.line)
    verdict = judge(events)
    if args.json:
        print(json.dumps(verdict, ensure_ascii=False))
    else:
        print(verdict["text"])
    if verdict["ok"]:
        return 0
    return 1 if verdict["rule"] is not None else 2  # refused by the rules, or not a valid record


def cmd_coach(args: argparse.Namespace) -> int:
    from companion.coach import NothingToDecide, advise
    from companion.record import ReplayError

    try:
        events = record.loads(Path(args.record).read_text(encoding="utf-8"))
        state = record.replay(events)
    except (OSError, UnicodeDecodeError) as exc:
        return _fail(args, 2, f"cannot read {args.record}: {exc}")
    except ReplayError as exc:
        line = exc.index + 1
        return _fail(args, 1, f"{args.record}: line {line} is refused: {exc.error}", line=line)
    except RecordError as exc:
        return _fail(args, 2, f"{args.record}: {exc}", line=exc.line)
    options: dict[str, Any] = {"seed": args.seed}
    if args.elbows:
        if state.info.id != "doshboardgolf":
            return _fail(args, 2, f"--elbows is for Doshboardgolf aims; {args.record} is a game of "
                                  f"{state.info.name}")
        options["elbows"] = True
    try:
        advice = advise(state, **options)
    except NothingToDecide as exc:
        said = f"nothing to decide now: {exc}"
        print(json.dumps({"ok": True, "advice": None, "text": said}) if args.json else said)
        return 0
    print(json.dumps({"ok": True, "advice": advice.to_json(), "text": advice.text()}) if args.json
          else advice.text(limit=args.top))
    return 0


def _fail(args: argparse.Namespace, code: int, message: str, line: int | None = None) -> int:
    if getattr(args, "json", False):
        print(json.dumps({"ok": False, "error": message, "line": line}))
    print(f"dice-companion: {printable(message)}", file=sys.stderr)
    return code


# --- parser ---------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dice-companion", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    def with_db(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--db", type=Path, help=f"games database (default {default_db()})")
        return p

    p = with_db(sub.add_parser("run", help="the main job: the touchscreen app"))
    p.add_argument("--size", type=_size, default=None,
                   help="window size: 800x480 or 720x1280 (default: [display] size in the configuration)")
    p.add_argument("--fullscreen", action=argparse.BooleanOptionalAction, default=None,
                   help="fill the display, the Pi's touchscreen (default: [display] fullscreen)")
    p.add_argument("--camera", choices=("auto", "picamera2", "webcam", "file", "sim", "none"), default=None,
                   help="where dice are read (default: [camera] source in the configuration, 'auto': the Pi "
                   "camera, else a webcam, else simulated dice); none: dice entered by hand")
    p.add_argument("--frames", type=int, default=None, help="stop after this many frames (tests)")
    p.add_argument("--game", default="rollers", choices=list(all_games()),
                   help="the game played when there is no screen at all")
    p.add_argument("--seed", type=int, default=None)
    p.set_defaults(func=cmd_run)

    for name, func, help_text in (("play", cmd_play, "play a game in the terminal with simulated dice"),):
        p = with_db(sub.add_parser(name, help=help_text))
        p.add_argument("--game", default="rollers", choices=list(all_games()))
        p.add_argument("--players", help="comma-separated names")
        p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", type=_option)
        p.add_argument("--seed", type=int, default=None)
        p.add_argument("--resume", type=int, metavar="ID", help="continue a saved game")
        p.set_defaults(func=func)

    p = with_db(sub.add_parser("games", help="list saved games (or delete one)"))
    p.add_argument("--json", action="store_true")
    p.add_argument("--delete", type=int, metavar="ID", help="delete a saved game (asks first)")
    p.add_argument("--yes", action="store_true", help="with --delete: do not ask")
    p.set_defaults(func=cmd_games)

    p = with_db(sub.add_parser("export", help="print a saved game's record (JSON Lines)"))
    p.add_argument("id", type=int)
    p.set_defaults(func=cmd_export)

    vision_commands.register(sub)

    p = sub.add_parser("referee", help="replay a record: the state, whose turn, the legal moves")
    p.add_argument("record")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_referee)

    p = sub.add_parser("coach", help="the odds of each choice at the position a record reaches")
    p.add_argument("record")
    p.add_argument("--json", action="store_true")
    p.add_argument("--top", type=int, default=12, help="moves shown, best first (text only)")
    p.add_argument("--seed", type=int, default=0, help="seed of the estimates where dice are sampled")
    p.add_argument("--elbows", action="store_true",
                   help="Doshboardgolf: value every elbow aim too (several hundred: seconds)")
    p.set_defaults(func=cmd_coach)
    return parser


EX_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a command stopped by a closed pipe


def _drop_stdout() -> None:
    """Point stdout at /dev/null so the flush at exit does not fail on the closed pipe again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's flush at exit
        return code
    except BrokenPipeError:  # the reader went away (`games | head`): stop quietly, as SIGPIPE would
        _drop_stdout()
        return EX_PIPE
    except DataDirError as exc:  # a setting to fix: the service does not restart on EX_CONFIG
        print(f"dice-companion: {printable(str(exc))}", file=sys.stderr)
        return EX_CONFIG
    except (StoreError, RecordError) as exc:
        print(f"dice-companion: {printable(str(exc))}", file=sys.stderr)
        return 2
    except CompanionError as exc:
        print(f"dice-companion: {printable(str(exc))}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
