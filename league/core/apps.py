from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The ground floor every app stands on (errors, the game catalogue, bulk writes, template helpers); it
    imports no other league app."""

    name = "league.core"
    label = "core"
    verbose_name = "Core"
