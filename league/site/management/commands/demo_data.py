"""`manage.py demo_data`: make sure the admin and demo player accounts exist, load the demo league once,
print both logins."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from league.site.demo import ensure_admin, ensure_demo_player, load_demo


class Command(BaseCommand):
    help = (
        "Create the demo admin account, the demo player account and the demo league (players, results, "
        "ratings) if they are missing."
    )

    def handle(self, *args, **options):
        username, password = ensure_admin()
        admin = get_user_model().objects.get(username=username)
        created = load_demo(admin=admin)
        if created:
            self.stdout.write(f"Loaded the demo league: {created} matches with results.")
        else:
            self.stdout.write("Players exist already: demo league not loaded again.")
        self.stdout.write(f"Admin login: user {username!r}, password {password!r}")
        player, player_password = ensure_demo_player()
        self.stdout.write(
            f"Player login (plays as Chiara): user {player!r}, password {player_password!r} at "
            "/accounts/login/"
        )
