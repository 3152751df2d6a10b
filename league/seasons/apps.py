from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    name = "league.seasons"
    label = "seasons"
    verbose_name = "Clubs and seasons"

    def ready(self) -> None:
        # A club's organizers may create events (as the club's); tournaments ask through its hooks.
        from league.seasons.selectors import organizes_a_club
        from league.tournaments.services.settings import CREATE_HOOKS

        if organizes_a_club not in CREATE_HOOKS:
            CREATE_HOOKS.append(organizes_a_club)

        # A season ranked by settled ratings is fitted by the workers, as the pools are.
        from league.ratings.refits import REFITTERS, Refitter
        from league.seasons.settled import season_refit, seasons_due

        REFITTERS["season"] = Refitter(fit=season_refit, due=seasons_due)
