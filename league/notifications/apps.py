from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "league.notifications"
    label = "notifications"
    verbose_name = "Notifications and webhooks"

    def ready(self) -> None:
        # Connects the receivers of league.core.events (the module connects them when imported).
        from league.notifications import receivers  # noqa: F401
