"""Development settings: the embedded defaults (SQLite and the filesystem broker under var/), DEBUG on."""

from league.settings import env
from league.settings.base import *  # noqa: F403
from league.settings.base import LOCAL_SECRET_KEY, VAR_DIR

VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env.flag("DEBUG", True)
# A development secret, never accepted by production settings (see base.check_secret).
SECRET_KEY = env.text("SECRET_KEY") or LOCAL_SECRET_KEY
# Static files are served from the app folders, without collectstatic, even with DEBUG off.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
