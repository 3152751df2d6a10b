from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "league.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"
