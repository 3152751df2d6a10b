from django.db import models


class WorkerBeat(models.Model):
    """A worker's heartbeat (`league.site.beats`): written by a timer thread of the worker every
    `BEAT_EVERY_SECONDS`, during its tasks too, with the task it is in; `/health/` counts the worker alive
    while its beat is under `ALIVE_SECONDS` old, and busy while it is in a task."""

    worker = models.CharField(
        max_length=200, unique=True, help_text="The worker: Celery node name or host:pid."
    )
    beat_at = models.DateTimeField(help_text="When its timer thread last wrote.")
    task = models.CharField(max_length=200, blank=True, help_text="The task it is in; blank when idle.")
    task_since = models.DateTimeField(null=True, blank=True, help_text="When it began the task.")

    class Meta:
        ordering = ["worker"]

    def __str__(self) -> str:
        return self.worker
