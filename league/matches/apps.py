from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "league.matches"
    label = "matches"
