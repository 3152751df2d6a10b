"""`manage.py bot_league_create`: create a bot league (and start it with --start)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from league.bots.models import BotDefinition
from league.bots.services.leagues import league_create, league_start
from league.core.errors import UserError


class Command(BaseCommand):
    help = "Create a bot league from registered bots (by name); --start starts it on the workers."

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True)
        parser.add_argument("--game", required=True)
        parser.add_argument("--bots", required=True, help="Bot names, comma-separated (latest versions).")
        parser.add_argument("--table", type=int, required=True, help="Seats at each table.")
        target = parser.add_mutually_exclusive_group(required=True)
        target.add_argument("--rounds", type=int)
        target.add_argument("--matches-per-bot", type=int)
        parser.add_argument("--sittings", type=int, default=4, help="Matches per bot per round.")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
        parser.add_argument("--start", action="store_true")

    def handle(self, *args, **options):
        bot_ids = []
        for name in (part.strip() for part in options["bots"].split(",") if part.strip()):
            bot = (
                BotDefinition.objects.filter(game_id=options["game"], name__iexact=name)
                .order_by("-version")
                .first()
            )
            if bot is None:
                raise CommandError(f"no bot called {name!r} for {options['game']}", returncode=2)
            bot_ids.append(bot.pk)
        game_options = {}
        for pair in options["option"]:
            key, sep, value = pair.partition("=")
            if not sep:
                raise CommandError(f"--option takes key=value, not {pair!r}", returncode=2)
            game_options[key.strip()] = value.strip()
        rounds = options["rounds"]
        try:
            league = league_create(
                name=options["name"],
                game_id=options["game"],
                bot_ids=bot_ids,
                table_size=options["table"],
                target_kind="rounds" if rounds is not None else "matches_per_bot",
                target_value=rounds if rounds is not None else options["matches_per_bot"],
                sittings_per_round=options["sittings"],
                seed=options["seed"],
                options=game_options,
                by=None,
            )
            if options["start"]:
                league_start(league_id=league.pk)
        except UserError as exc:
            raise CommandError(exc.message, returncode=2) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Created league {league.name} (id {league.pk}), {league.get_status_display().lower()}."
            )
        )
