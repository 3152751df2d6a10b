"""`manage.py bot_register`: register a bot (a built-in strategy with parameters, or an external program)."""

from __future__ import annotations

import shlex

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from league.bots.services.definitions import bot_register
from league.core.errors import UserError


class Command(BaseCommand):
    help = "Register a bot: --strategy NAME [--param key=value ...], or --command '/path/to/program args'."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, help="A game id (python -m games list).")
        parser.add_argument("--name", required=True)
        parser.add_argument(
            "--strategy", default="", help="A built-in bot of the game (random, search, ...)."
        )
        parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE")
        parser.add_argument(
            "--command", default="", help="An external program and its arguments (staff only)."
        )
        parser.add_argument("--user", default="", help="The staff account registering an external program.")
        parser.add_argument("--move-seconds", type=float, default=1.0)
        parser.add_argument("--cpu-seconds", type=int, default=60)
        parser.add_argument("--memory-mb", type=int, default=512)
        parser.add_argument("--time-bank-seconds", type=float, default=10.0)
        parser.add_argument("--description", default="")

    def handle(self, *args, **options):
        params = {}
        for pair in options["param"]:
            key, sep, value = pair.partition("=")
            if not sep or not key:
                raise CommandError(f"--param takes key=value, not {pair!r}", returncode=2)
            params[key.strip()] = value.strip()
        user = None
        if options["user"]:
            user = get_user_model().objects.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(f"no account called {options['user']!r}", returncode=2)
        external = bool(options["command"])
        if external == bool(options["strategy"]):
            raise CommandError(
                "give either --strategy (a built-in bot) or --command (an external program)", returncode=2
            )
        try:
            bot = bot_register(
                name=options["name"],
                description=options["description"],
                game_id=options["game"],
                kind="external" if external else "builtin",
                strategy=options["strategy"],
                params=params,
                command=shlex.split(options["command"]),
                move_seconds=options["move_seconds"],
                cpu_seconds=options["cpu_seconds"],
                memory_mb=options["memory_mb"],
                time_bank_seconds=options["time_bank_seconds"],
                by=user,
            )
        except UserError as exc:
            raise CommandError(exc.message, returncode=2) from None
        self.stdout.write(self.style.SUCCESS(f"Registered bot {bot.label} (id {bot.pk}) for {bot.game_id}."))
