from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "league.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # A player's rename changes the names a tournament's pages show: it bumps their public version.
        # A declared and approved venue address lifts the limits per client address (core's throttling).
        from league.core.throttling import VENUE_CHECKS
        from league.players.services import RENAME_HOOKS
        from league.tournaments.services.common import bump_names_version, bump_public_versions_of_player
        from league.tournaments.venues import is_declared_venue

        if bump_public_versions_of_player not in RENAME_HOOKS:
            RENAME_HOOKS.append(bump_public_versions_of_player)
        if bump_names_version not in RENAME_HOOKS:  # and the site-wide names version (web.tournaments.shared)
            RENAME_HOOKS.append(bump_names_version)
        if is_declared_venue not in VENUE_CHECKS:
            VENUE_CHECKS.append(is_declared_venue)
