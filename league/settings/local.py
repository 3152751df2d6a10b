"""Development settings: the embedded defaults (SQLite and the filesystem broker under var/), DEBUG on."""

from league.settings import env
from league.settings.base import *  # noqa: F403
from league.settings.base import VAR_DIR

VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env.flag("DEBUG", True)
# A development secret, never accepted by production settings (see production.DEVELOPMENT_SECRET_PREFIX).
SECRET_KEY = env.text("SECRET_KEY") or "development-only-secret-not-for-production"
# Static files are served from the app folders, without collectstatic, even with DEBUG off.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
