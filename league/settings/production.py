"""Production settings: every secret from the environment; refuses to start without a real one.

HTTPS: the TLS proxy says so in X-Forwarded-Proto; SECURE_SSL_REDIRECT redirects plain HTTP to HTTPS (except
the health check, which probes may send over plain HTTP) and SECURE_HSTS_SECONDS (with
SECURE_HSTS_INCLUDE_SUBDOMAINS and SECURE_HSTS_PRELOAD) tells browsers to use nothing else. They are off
until the environment switches them on, since HSTS cannot be taken back from browsers that have seen it.
"""

from league.settings import env
from league.settings.base import *  # noqa: F403
from league.settings.base import SECRET_KEY, check_secret

SECRET_KEY = check_secret(SECRET_KEY)
DEBUG = env.flag("DEBUG", False)
SESSION_COOKIE_SECURE = env.flag("SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = env.flag("SECURE_COOKIES", True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_SSL_REDIRECT = env.flag("SECURE_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
SECURE_HSTS_SECONDS = env.number("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env.flag("SECURE_HSTS_PRELOAD", False)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
