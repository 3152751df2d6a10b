"""Production settings: every secret from the environment; refuses to start without a real one."""

from django.core.exceptions import ImproperlyConfigured

from league.settings import env
from league.settings.base import *  # noqa: F403
from league.settings.base import SECRET_KEY

DEVELOPMENT_SECRETS = ("development-only-secret-not-for-production", "test-only-secret")


def check_secret(secret: str | None) -> str:
    """Return `secret` if it is fit for production; raise ImproperlyConfigured otherwise."""
    if not secret:
        raise ImproperlyConfigured("SECRET_KEY is not set: production needs a long random secret")
    if secret in DEVELOPMENT_SECRETS or secret.startswith("django-insecure") or len(secret) < 32:
        raise ImproperlyConfigured("SECRET_KEY is a development or short secret: set a long random one")
    return secret


SECRET_KEY = check_secret(SECRET_KEY)
DEBUG = env.flag("DEBUG", False)
SESSION_COOKIE_SECURE = env.flag("SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = env.flag("SECURE_COOKIES", True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
