from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "league.core"
    label = "core"
    verbose_name = "Site"
