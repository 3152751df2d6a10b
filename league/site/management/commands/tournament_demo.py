"""`manage.py tournament_demo`: create the demo tournaments (once), run by the demo admin."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from league.site.demo import ensure_admin
from league.tournaments.demo import load_tournament_demo


class Command(BaseCommand):
    help = "Create the demo tournaments (a live Swiss, a half-played cup, an open day) if they are missing."

    def handle(self, *args, **options):
        username, _ = ensure_admin()
        tournaments = load_tournament_demo(admin=get_user_model().objects.get(username=username))
        if tournaments:
            self.stdout.write(f"Created the demo tournaments: {', '.join(t.name for t in tournaments)}.")
        else:
            self.stdout.write("The demo tournaments exist already (or there are too few players).")
