from django.apps import AppConfig


class ResultsConfig(AppConfig):
    name = "league.results"
    label = "results"
