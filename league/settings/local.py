"""Development settings: the embedded defaults (SQLite and the filesystem broker under var/), DEBUG on."""

from league.core.private_files import private_dir, private_embedded_database
from league.settings import env
from league.settings.base import *  # noqa: F403
from league.settings.base import DATABASES, LOCAL_SECRET_KEY, VAR_DIR

# var/ holds the database, the broker's messages and the demo passwords: this account's alone (0700), and
# the embedded database 0600 from the moment it exists (league.core.private_files).
private_dir(VAR_DIR)
private_embedded_database(DATABASES["default"])

DEBUG = env.flag("DEBUG", True)
# A development secret, never accepted by production settings (see base.check_secret).
SECRET_KEY = env.text("SECRET_KEY") or LOCAL_SECRET_KEY
# Static files are served from the app folders, without collectstatic, even with DEBUG off.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
