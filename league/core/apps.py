from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.urls import register_converter

from league.core.private_files import private_database, sqlite_file
from league.core.slugs import NameSlugConverter


def _private_sqlite(sender, connection, **kwargs) -> None:
    """Every connection to a SQLite file leaves it and its companions 0600, whoever made it (migrate, `serve`,
    a worker, the test runner) and whatever the settings (league.core.private_files)."""
    name = sqlite_file(connection.settings_dict)
    if name:
        private_database(name, create=False)


class CoreConfig(AppConfig):
    """The ground floor every app stands on (errors, the game catalogue, bulk writes, template helpers); it
    imports no other league app. It registers the path converter of name slugs (`<name_slug:...>`), and
    keeps a SQLite database file private to this account (0600) at every connection."""

    name = "league.core"
    label = "core"
    verbose_name = "Core"

    def ready(self) -> None:
        register_converter(NameSlugConverter, "name_slug")
        connection_created.connect(_private_sqlite, dispatch_uid="league.core.private_sqlite")
