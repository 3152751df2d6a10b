from django.apps import AppConfig
from django.urls import register_converter

from league.core.slugs import NameSlugConverter


class CoreConfig(AppConfig):
    """The ground floor every app stands on (errors, the game catalogue, bulk writes, template helpers); it
    imports no other league app. It registers the path converter of name slugs (`<name_slug:...>`)."""

    name = "league.core"
    label = "core"
    verbose_name = "Core"

    def ready(self) -> None:
        register_converter(NameSlugConverter, "name_slug")
