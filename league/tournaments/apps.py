from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "league.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # A player's rename changes the names a tournament's pages show: it bumps their public version.
        from league.players.services import RENAME_HOOKS
        from league.tournaments.services.common import bump_public_versions_of_player

        RENAME_HOOKS.append(bump_public_versions_of_player)
