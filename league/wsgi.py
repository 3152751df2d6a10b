"""WSGI entry point for gunicorn: `gunicorn league.wsgi` (set DJANGO_SETTINGS_MODULE for production)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings.local")

application = get_wsgi_application()
