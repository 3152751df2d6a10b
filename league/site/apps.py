from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The top floor: site-wide pages (home, health), the demo data and `serve`; it may use every app."""

    name = "league.site"
    label = "site"
    verbose_name = "Site"
