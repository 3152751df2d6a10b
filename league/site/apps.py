from django.apps import AppConfig


class SiteConfig(AppConfig):
    """Site-wide pieces below the pages: the health check, the workers' heartbeats, the demo data and `serve`;
    it may use every app below it."""

    name = "league.site"
    label = "site"
    verbose_name = "Site"

    def ready(self) -> None:
        from league.site import beats  # noqa: F401  (connects a worker's heartbeat to Celery's signals)
