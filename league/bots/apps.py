from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "league.bots"
    verbose_name = "Bots and bot leagues"

    def ready(self) -> None:
        # A queued whole-history fit is work of the workers' fair share: queuing one wakes a worker.
        from league.bots.services.challenges import wake_a_worker
        from league.ratings.refits import WAKE_HOOKS

        if wake_a_worker not in WAKE_HOOKS:
            WAKE_HOOKS.append(wake_a_worker)
