from django.apps import AppConfig


class ProgramsConfig(AppConfig):
    name = "league.programs"
    verbose_name = "External programs"
