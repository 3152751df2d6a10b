"""`manage.py bot_demo`: create and start a demo bot league per registered game, and a demo ladder (once)."""

from django.core.management.base import BaseCommand

from league.bots.demo import DEMO_INTERVAL_SECONDS, load_bot_demo


class Command(BaseCommand):
    help = "Create and start the demo bot leagues (one per registered game) and ladder if they are missing."

    def handle(self, *args, **options):
        leagues = load_bot_demo()
        if leagues:
            names = ", ".join(league.name for league in leagues)
            self.stdout.write(
                f"Started {len(leagues)} demo bot leagues ({names}): a round every {DEMO_INTERVAL_SECONDS} s."
            )
        else:
            self.stdout.write("The demo bot leagues exist already.")
