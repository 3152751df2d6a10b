"""The Pecking Order Django project. Importing it loads the Celery app so that `shared_task` binds to it."""

from league.celery import app as celery_app

__all__ = ("celery_app",)
