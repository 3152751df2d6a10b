"""`python -m games`: list games and bots, play a match, replay a record, benchmark an engine, run an arena.

Bad arguments print a clear message and exit with status 2; a record that does not replay exits 1.
`replay --strict` exits 0 for a verified record, 1 for a rejected one (naming the event), 2 for a file that is
not a record, and 3 for a record that cannot be verified (no bot versions recorded, another game version).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from games import registry
from games.core.errors import GameError, ReplayError
from games.core.protocol import TIME_BANK_SECONDS, Limits
from games.core.record import canonical_json
from games.core.replay import replay
from games.core.runner import bot_seed, normalize_seats, play_match
from games.core.state import State


class UsageError(Exception):
    """Bad command-line input: printed as a message, exit status 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse exits 2 too; keep its message short and clear
        raise UsageError(message)


def parse_option(text: str) -> tuple[str, str]:
    if "=" not in text:
        raise UsageError(f"--option takes key=value, got {text!r}")
    key, value = text.split("=", 1)
    return key.strip(), value.strip()


def parse_seed(text: str) -> int:
    try:
        seed = int(text)
    except ValueError:
        raise UsageError(f"--seed takes a whole number, got {text!r}") from None
    if seed < 0:
        raise UsageError("--seed takes a number of 0 or more")
    return seed


def positive(name: str, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"{name} takes a whole number, got {text!r}") from None
    if value < 1:
        raise UsageError(f"{name} takes a number of 1 or more")
    return value


def parse_bots(text: str, game_id: str) -> list[Any]:
    """`random,heuristic:budget=200` — names, each with optional `:key=value` parameters."""
    bots = []
    for item in text.split(","):
        name, _, rest = item.strip().partition(":")
        params = dict(parse_option(p) for p in rest.split(";") if p) if rest else {}
        bots.append((name, params))
    normalize_seats(bots, game_id)
    return bots


def cmd_list(args: argparse.Namespace) -> int:
    out = []
    for game in registry.all_games():
        spec = game.spec
        bots = registry.bots_for(spec.id)
        out.append({**spec.describe(), "bots": [b.describe() for b in bots.values()]})
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    for entry in out:
        print(
            f"{entry['id']}  v{entry['version']}  {entry['name']}  "
            f"({entry['min_players']}-{entry['max_players']} players)"
        )
        for opt in entry["options"]:
            choices = f" [{', '.join(str(c) for c in opt['choices'])}]" if "choices" in opt else ""
            print(f"    option {opt['name']}={opt['default']}{choices}  {opt['help']}")
        for bot in entry["bots"]:
            params = ", ".join(f"{p['name']}={p['default']}" for p in bot["params"])
            print(f"    bot {bot['name']}{f' ({params})' if params else ''}  {bot['summary']}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    if args.seat or args.from_record:
        return cmd_play_seats(args)
    if args.record or args.html:
        raise UsageError("--record and --html go with --seat (or --from-record)")
    if args.bots is None or args.players is None:
        raise UsageError("play needs --players and --bots, or one --seat per seat")
    game = registry.get_game(args.game)
    options = dict(parse_option(o) for o in args.option)
    bots = parse_bots(args.bots, game.spec.id)
    if len(bots) == 1 and args.players > 1:
        bots = bots * args.players
    if len(bots) != args.players:
        raise UsageError(
            f"--players {args.players} needs {args.players} bots (or one for all), got {len(bots)}"
        )
    names = [bot[0] for bot in bots]
    if args.json and args.playthrough:
        raise UsageError("--json and --playthrough print different things: give one of them")
    quiet = args.json or args.playthrough
    details: dict[int, str] = {}
    record = play_match(
        game.spec.id,
        args.players,
        bots,
        args.seed,
        options,
        on_event=None if quiet else narrator(game.spec.id, names),
        forfeit_details=details,
    )
    return show(args, record, details)


def narrator(game_id: str, names: list[str]) -> Callable[[State, list[Any]], None]:
    """The readable account: each event in words, with the game's picture at its milestones."""
    milestone = registry.milestone_text(game_id)

    def narrate(state: State, event: list[Any]) -> None:
        kind, payload = event
        if kind == "c":
            print(f"  chance: {state.describe_chance(payload)}")
        else:
            for seat, action in payload.items():
                print(f"  seat {seat} ({names[int(seat)]}): {state.describe_action(int(seat), action)}")
        picture = milestone(state) if milestone is not None else None
        if picture:
            print(picture)

    return narrate


def show(args: argparse.Namespace, record: dict[str, Any], details: dict[int, str]) -> int:
    """Print the played match as asked: its record (`--json`), its playthrough, or its account."""
    if args.json:
        print(canonical_json(record))
        return 0
    if args.playthrough:
        from games.core.playthrough import playthrough

        sys.stdout.write(playthrough(record))
        return 0
    final = replay(record)
    picture = final.render()
    if picture:
        print(picture)
    print(summarize(record, details))
    return 0


def cmd_play_seats(args: argparse.Namespace) -> int:
    """`play GAME --seat ...` (or `play --from-record FILE --seat N=...`): programs and built-in bots through
    the workers' protocol client, with the server's limits (games.core.local)."""
    from games.core.local import (
        parse_numbered_seat,
        parse_seat,
        refuse_unsupported_system,
        rlimits,
        runtime_limits,
        seats_from_record,
        version_notes,
    )
    from games.core.protocol import LocalSeats, bank_text

    if args.bots is not None:
        raise UsageError("give the seats with --seat or with --bots, not both")
    if args.json and args.playthrough:
        raise UsageError("--json and --playthrough print different things: give one of them")
    if args.from_record:
        if args.game is not None or args.players is not None or args.option:
            raise UsageError("--from-record takes the game, players, options and seed from the record")
        record_in = read_record(args.from_record)
        replaced: dict[int, Any] = {}
        for text in args.seat:
            number, seat = parse_numbered_seat(text)
            if number in replaced:
                raise UsageError(f"seat {number} is given twice")
            replaced[number] = seat
        seats = seats_from_record(record_in, replaced)
        game_id, options, seed = record_in.get("game"), record_in.get("options"), record_in.get("seed")
        if not isinstance(game_id, str) or not isinstance(options, dict):
            raise UsageError(f"{args.from_record} is not a match record (no game or options)")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise UsageError(f"{args.from_record} is not a match record (no whole-number seed)")
        game = registry.get_game(game_id)
        for note in version_notes(record_in, seats):
            print(f"note: {note}", file=sys.stderr)
    else:
        if args.game is None:
            raise UsageError("play needs the game")
        game = registry.get_game(args.game)
        seats = [parse_seat(text) for text in args.seat]
        if args.players is not None and args.players != len(seats):
            raise UsageError(f"--players {args.players} needs {args.players} seats, got {len(seats)}")
        options = dict(parse_option(o) for o in args.option)
        seed = args.seed
    limits = Limits(
        move_seconds=args.move_seconds,
        cpu_seconds=args.cpu_seconds,
        memory_mb=args.memory_mb,
        startup_seconds=args.startup_seconds,
        time_bank_seconds=args.time_bank,
    )
    if any(seat.is_program for seat in seats):
        refuse_unsupported_system()
    names = [seat.label for seat in seats]
    details: dict[int, str] = {}
    quiet = args.json or args.playthrough
    notes: list[str] = []
    with LocalSeats() as local:
        players: list[Any] = []
        for number, seat in enumerate(seats):
            if not seat.is_program:
                players.append((seat.name, dict(seat.params)))
                continue
            command, seat_limits = runtime_limits(seat.command, limits)
            preexec, missing = rlimits(seat_limits)
            notes += [f"note: this system cannot limit a program's {what}" for what in missing]
            players.append(
                local.seat(
                    label=seat.label,
                    command=command,
                    limits=seat_limits,
                    seed=bot_seed(seed, number),
                    preexec=preexec,
                )
            )
        for note in dict.fromkeys(notes):
            print(note, file=sys.stderr)
        record = play_match(
            game.spec.id,
            len(seats),
            players,
            seed,
            options,
            move_time_limit=None,
            on_event=None if quiet else narrator(game.spec.id, names),
            forfeit_details=details,
        )
        local.finish(record["outcome"])
        banks = [(bot.seat, bank_text(limits.time_bank_seconds, bot.bank_after)) for bot in local.bots]
    if args.record:
        write_file(args.record, canonical_json(record) + "\n")
    if args.html:
        from games.viewer.page import replay_page

        write_file(args.html, replay_page(record, names, details))
    status = show(args, record, details)
    if not (args.json or args.playthrough):
        for number, text in filter(lambda bank: bank[1], banks):
            print(f"  seat {number}'s {text}")
    return status


def read_record(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise UsageError(f"{path} is not JSON: {exc}") from None


def write_file(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None


def seconds(name: str, low: float, high: float) -> Callable[[str], float]:
    """An argument of seconds between `low` and `high`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise UsageError(f"{name} takes a number of seconds, got {text!r}") from None
        if not low <= value <= high:  # NaN fails too
            raise UsageError(f"{name} takes {low:g} to {high:g} seconds, got {text}")
        return value

    return parse


def summarize(record: dict[str, Any], details: dict[int, str] | None = None) -> str:
    """The record in a few lines; `details` (by seat) says in words why a seat forfeited, where known."""
    lines = [
        f"{record['game']} v{record['version']}, seed {record['seed']}: {len(record['events'])} events, "
        f"ended {record['end']['reason']}"
    ]
    for forfeit in record["end"]["forfeits"]:
        detail = (details or {}).get(forfeit["seat"])
        lines.append(
            f"  seat {forfeit['seat']} forfeited at event {forfeit['event']}: {forfeit['reason']}"
            + (f" ({detail})" if detail else "")
        )
    outcome = record["outcome"]
    for seat, (place, score) in enumerate(zip(outcome["places"], outcome["scores"], strict=True)):
        lines.append(f"  place {place}: seat {seat} ({seat_name(record['seats'][seat])}), score {score}")
    return "\n".join(lines)


def seat_name(entry: Any) -> str:
    """What the account calls a seat: a program by its definition (locally, its command), a bot by name."""
    if not isinstance(entry, dict):
        return "?"
    params = entry.get("params")
    if "external" in entry and isinstance(params, dict) and isinstance(params.get("definition"), str):
        return str(params["definition"])
    return str(entry.get("bot", "?"))


EXIT_NOT_VERIFIABLE = 3


def cmd_replay(args: argparse.Namespace) -> int:
    record = read_record(args.file)
    if args.strict:
        return strict_replay(record)
    try:
        replay(record)
    except ReplayError as exc:
        print(f"replay failed: {exc}", file=sys.stderr)
        return 1
    print("replay ok")
    print(summarize(record))
    return 0


def strict_replay(record: Any) -> int:
    from games.core.verify import REJECTED, VERIFIED, verify

    verdict = verify(record)  # BadRecord (a GameError): exit 2 with its message
    if verdict.status == REJECTED:
        print(verdict.summary(), file=sys.stderr)
        return 1
    print(verdict.summary())
    for entry in verdict.not_remade:
        print(f"  seat {entry['seat']} not re-made ({entry['why']}): its decisions checked for legality only")
    for note in verdict.notes:
        print(f"  {note}")
    if verdict.status != VERIFIED:
        return EXIT_NOT_VERIFIABLE
    print(summarize(record))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from games.core.benchmark import bench_game

    registry.get_game(args.game)
    report = bench_game(args.game, args.players, args.games, args.seed, args.repeats)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(report["text"])
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
    from games.core.arena import play_series

    game = registry.get_game(args.game)
    bots = parse_bots(args.bots, game.spec.id)
    if len(bots) == 1 and args.players > 1:
        bots = bots * args.players
    if len(bots) != args.players:
        raise UsageError(
            f"--players {args.players} needs {args.players} bots (or one for all), got {len(bots)}"
        )
    options = dict(parse_option(o) for o in args.option)
    game.spec.validate_options(options, args.players)

    def progress(done: int, total: int) -> None:
        if args.quiet:
            return
        width = 30
        filled = width * done // total
        print(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", end="", file=sys.stderr, flush=True
        )
        if done == total:
            print(file=sys.stderr)

    result = play_series(
        game.spec.id, bots, args.players, args.games, args.seed, options, jobs=args.jobs, progress=progress
    )
    print(
        f"{game.spec.name}, {args.players} players, {args.games} games, seed {args.seed}"
        f" (fair share {result.fair_share:.3f}; turn caps {result.turn_caps})"
    )
    print(result.table())
    return 0


def build_parser() -> Parser:
    parser = Parser(prog="python -m games", description="Pecking Order's game engines")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    p = sub.add_parser("list", help="games, their options and bots")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser(
        "play",
        help="play one match between bots, and your programs (--seat cmd:...) as the server plays them",
    )
    p.add_argument("game", nargs="?")
    p.add_argument("--players", type=lambda t: positive("--players", t))
    p.add_argument("--bots", help="comma-separated bot names, one per seat (or one for all)")
    p.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="SEAT",
        help="one per seat, seat 0 first: cmd:COMMAND (your program) or a bot, NAME[:key=value;...]; "
        "with --from-record, N=SEAT replaces seat N",
    )
    p.add_argument(
        "--from-record",
        metavar="FILE",
        help="play a recorded match's game, options, seed and built-in bots again, with --seat N=cmd:...",
    )
    p.add_argument("--seed", type=parse_seed, default=0)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--json", action="store_true", help="print the match record instead of an account")
    p.add_argument(
        "--playthrough",
        action="store_true",
        help="print every step with every seat's observation (docs/engine.md, Playthroughs)",
    )
    p.add_argument("--record", metavar="FILE", help="write the match record (JSON) there")
    p.add_argument("--html", metavar="FILE", help="write the replay there, one HTML file that opens offline")
    defaults = Limits()
    p.add_argument(
        "--move-seconds",
        type=seconds("--move-seconds", 0.01, 60),
        default=defaults.move_seconds,
        help=f"a program's time per answer (the server's default: {defaults.move_seconds:g})",
    )
    p.add_argument(
        "--startup-seconds",
        type=seconds("--startup-seconds", 0, 60),
        default=defaults.startup_seconds,
        help=f"added to a program's first answer (the server's: {defaults.startup_seconds:g})",
    )
    p.add_argument(
        "--cpu-seconds",
        type=lambda t: positive("--cpu-seconds", t),
        default=defaults.cpu_seconds,
        help=f"a program's CPU time for the match (the server's default: {defaults.cpu_seconds})",
    )
    p.add_argument(
        "--memory-mb",
        type=lambda t: positive("--memory-mb", t),
        default=defaults.memory_mb,
        help=f"a program's address space (the server's default: {defaults.memory_mb})",
    )
    p.add_argument(
        "--time-bank",
        type=seconds("--time-bank", 0, 60),
        default=TIME_BANK_SECONDS,
        help=f"a program's time bank for the match, drawn on by answers over the move time "
        f"(the server's default: {TIME_BANK_SECONDS:g})",
    )
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "replay",
        help="check a match record's legality (or, with --strict, every value) and print its outcome",
    )
    p.add_argument("file")
    p.add_argument(
        "--strict",
        action="store_true",
        help=(
            "also re-draw every chance outcome from the seed and re-make the built-in bots' decisions: exit "
            "0 verified, 1 rejected, 2 not a record, 3 not verifiable"
        ),
    )
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("bench", help="games, decisions and clones per second with random bots")
    p.add_argument("game")
    p.add_argument("--players", type=lambda t: positive("--players", t), default=4)
    p.add_argument("--games", type=lambda t: positive("--games", t), default=200)
    p.add_argument("--repeats", type=lambda t: positive("--repeats", t), default=5)
    p.add_argument("--seed", type=parse_seed, default=0)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("arena", help="a seeded series between bots, with statistics")
    p.add_argument("game")
    p.add_argument("--players", required=True, type=lambda t: positive("--players", t))
    p.add_argument("--bots", required=True)
    p.add_argument("--games", type=lambda t: positive("--games", t), default=100)
    p.add_argument("--seed", type=parse_seed, default=0)
    p.add_argument("--jobs", type=lambda t: positive("--jobs", t), default=1)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_arena)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        status: int = args.func(args)
        return status
    except (UsageError, GameError) as exc:
        print(f"python -m games: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
