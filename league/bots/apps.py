from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "league.bots"
    verbose_name = "Bots and bot leagues"
