from django.apps import AppConfig


class SiteConfig(AppConfig):
    """Site-wide pieces below the pages: the health check, the demo data and `serve`; it may use every app
    below it."""

    name = "league.site"
    label = "site"
    verbose_name = "Site"
