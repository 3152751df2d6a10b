from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "league.players"
    label = "players"
