"""Settings shared by every environment. Machine-specific values come from `league.settings.env`."""

from __future__ import annotations

import os
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.checks.security.base import SECRET_KEY_MIN_LENGTH, SECRET_KEY_MIN_UNIQUE_CHARACTERS
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

from league.settings import env

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(env.text("PECKING_ORDER_VAR_DIR", str(BASE_DIR / "var")))

SECRET_KEY = env.text("SECRET_KEY")
# The secrets of the local and test settings, public in this repository: production refuses any key
# that contains one (see check_secret).
LOCAL_SECRET_KEY = "development-only-secret-not-for-production"
TEST_SECRET_KEY = "test-only-secret"  # noqa: S105 - never used outside tests
DEBUG = env.flag("DEBUG", False)
ALLOWED_HOSTS = env.words("ALLOWED_HOSTS", ("localhost", "127.0.0.1", "[::1]"))
CSRF_TRUSTED_ORIGINS = env.words("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "axes",
    "csp",
    "league.core",
    "league.players",
    "league.matches",
    "league.results",
    "league.ratings",
    "league.programs",
    "league.bots",
    "league.tournaments",
    "league.seasons",
    "league.notifications",
    "league.accounts",
    "league.api",
    "league.site",
]

MIDDLEWARE = [
    # First, before anything reads a body: one over its view's cap answers 413 (league.core.bodies).
    "league.api.errors.BodySizeLimit",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A look at an event's shared page by a visitor without a session: answered from the cache here, before
    # the session, authentication and the view (league.web.tournaments.shared, docs/production.md).
    "league.web.tournaments.shared.SharedPages",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Logs out a session older than SESSION_ABSOLUTE_SECONDS (league.accounts.sessions).
    "league.accounts.sessions.SessionLifetime",
    # Pages show times in the reader's zone (an event's pages in the event's); the API in UTC.
    "league.accounts.zones.ReaderTimeZone",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a login that its backend refused into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Content-Security-Policy on every response (django-csp): scripts, styles, images and fetches from this site
# only, and no inline script, <style> element, style= attribute or on*= handler: neither 'unsafe-inline' nor
# nonces (a nonce would make every response unique, which no cache can share). No other site may frame a page
# (as X-Frame-Options: DENY says to older browsers) except the embed, which replaces frame-ancestors with *
# (league.web.tournaments.room); the API docs add data: images (league.urls). docs/league.md, "Content
# Security Policy".
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

ROOT_URLCONF = "league.urls"
WSGI_APPLICATION = "league.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "league.core.context_processors.games",
                "league.core.context_processors.short_names",
                "league.core.context_processors.page_zone",
                "league.notifications.context_processors.unread",
            ],
            "builtins": ["league.core.templatetags.bidi"],
        },
    },
]


def database_from_url(url: str) -> dj_database_url.DBConfig:
    """Django's DATABASES entry for `url`; SQLite gets WAL mode and immediate transactions.

    WAL lets readers work while one writer writes; IMMEDIATE takes the write lock when a transaction starts,
    so the web server, the worker and beat queue up (within `timeout`) instead of failing with
    "database is locked" when two transactions try to upgrade their read locks at once.
    """
    config = dj_database_url.parse(url, conn_max_age=0 if url.startswith("sqlite") else 60)
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["OPTIONS"] = {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 30,
        }
    return config


DATABASE_URL = env.text("DATABASE_URL", f"sqlite:///{VAR_DIR / 'league.sqlite3'}")
DATABASES = {"default": database_from_url(DATABASE_URL)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    # ASVS 2.1.1: at least 12 characters (for new and changed passwords; existing ones still log in).
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# The replay viewer's script and style are the engines' package data (games/viewer/static/), which the local
# runner's replay files inline: the site serves the same files as replay/replay.js and replay/replay.css.
STATICFILES_DIRS = [("replay", BASE_DIR / "games" / "viewer" / "static")]
# Sign-up, log-in and the player's own pages: league.accounts (docs/players.md).
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "accounts:me"
LOGOUT_REDIRECT_URL = "home"
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # a reset link works for a day
# Sessions end after SESSION_COOKIE_AGE without a request (a request that reads its signed-in user saves the
# session at most once a minute, so its expiry moves on; a live page that polls keeps it alive) and
# SESSION_ABSOLUTE_SECONDS after the log-in in all, whatever the requests (league.accounts.sessions).
SESSION_COOKIE_AGE = 12 * 60 * 60
SESSION_ABSOLUTE_SECONDS = 14 * 24 * 60 * 60

# Mail (password resets): SMTP when EMAIL_HOST is set, else the console backend, which prints each mail to the
# log of the web process (`make run` shows them).
EMAIL_HOST = env.text("EMAIL_HOST", "")
EMAIL_PORT = env.number("EMAIL_PORT", 587, minimum=1)
EMAIL_HOST_USER = env.text("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env.text("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env.flag("EMAIL_USE_TLS", True)
EMAIL_TIMEOUT = 20
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = env.text("DEFAULT_FROM_EMAIL", "Pecking Order <no-reply@localhost>")
# Password-reset mails: at most this many per hour to one address, to one account and from one client
# address; beyond them the form answers the same and sends nothing (league.accounts.throttling).
PASSWORD_RESET_MAILS_PER_HOUR = env.number("PASSWORD_RESET_MAILS_PER_HOUR", 3, minimum=1)
PASSWORD_RESET_REQUESTS_PER_CLIENT_HOUR = 200  # a venue: a hundred phones behind one address
# Sign-up mails its link (or, to an address that has an account, a note saying so): at most this many an
# hour to one address, and from one client address this many mails and failed attempts (a form at fault, a
# broken link) an hour; beyond the client's limits sign-up answers 429 (league.accounts.throttling). A venue
# puts a hundred phones behind one address: the defaults let each of them sign up with two mails and three
# failures.
SIGN_UP_LINK_SECONDS = 60 * 60 * 24  # a sign-up link works for a day
SIGN_UP_MAILS_PER_ADDRESS_HOUR = env.number("SIGN_UP_MAILS_PER_ADDRESS_HOUR", 3, minimum=1)
SIGN_UP_REQUESTS_PER_CLIENT_HOUR = env.number("SIGN_UP_REQUESTS_PER_CLIENT_HOUR", 200, minimum=1)
SIGN_UP_FAILURES_PER_CLIENT_HOUR = env.number("SIGN_UP_FAILURES_PER_CLIENT_HOUR", 300, minimum=1)
# An API token expires this many days after it is made: one of API_TOKEN_DAYS, chosen when it is made.
API_TOKEN_DAYS = (30, 90, 365)
API_TOKEN_DEFAULT_DAYS = 90
# A claim link (league.accounts) lets one person take over one player; it expires after this many days.
CLAIM_LINK_DAYS = 7
# A private link (league.web.tournaments.private_links) works until its event ends plus this many
# days; it answers this many requests an hour, and one client address may send this many unknown, revoked or
# expired links an hour before every private link from it answers 429 (sized for a venue). At the address an
# organizer declared for the event day and staff approved, only the limit per link counts
# (league.tournaments.venues).
PRIVATE_LINK_DAYS_AFTER_END = 7
PRIVATE_LINK_REQUESTS_PER_LINK_HOUR = env.number("PRIVATE_LINK_REQUESTS_PER_LINK_HOUR", 600, minimum=1)
PRIVATE_LINK_FAILURES_PER_CLIENT_HOUR = env.number("PRIVATE_LINK_FAILURES_PER_CLIENT_HOUR", 300, minimum=1)
# The address of the site in mails (notifications, sign-up and password links lead back to it); `manage.py
# serve` sets it from its host and port when the environment does not.
SITE_URL = env.site_url("SITE_URL", "http://localhost:8000")
# Outbound webhooks (league.notifications.delivery) never call loopback, private, link-local or metadata
# addresses; these networks are let through anyway. Empty outside tests: never set it in production.
WEBHOOK_ALLOWED_ADDRESSES: tuple[str, ...] = ()
# One attempt of a webhook delivery, from the look-up to the last byte read, ends after this many seconds (a
# watchdog closes its socket); the delivery task's Celery time limit is this plus a margin.
WEBHOOK_DEADLINE_SECONDS = 10.0
# Live tournament pages (a published round's page, the projector, the event's live standings) fetch themselves
# again this often, asking with their ETag; while nothing changes (a 304) the wait doubles up to
# 60 s, and a change brings it back (tournaments/live.js); the embed starts at twice as
# long (league.web.tournaments.room).
TOURNAMENT_LIVE_SECONDS = 5
# Standings of events this large (rows) are refreshed in the background while the pages that show them keep
# showing a snapshot at most this many seconds old, "as of" its time (league.tournaments.snapshots).
STANDINGS_BACKGROUND_ROWS = env.number("STANDINGS_BACKGROUND_ROWS", 2000)
STANDINGS_STALE_SECONDS = env.number("STANDINGS_STALE_SECONDS", 30)


def check_secret(secret: str | None) -> str:
    """`secret` if it is fit for production; otherwise ImproperlyConfigured naming SECRET_KEY and the flaw.

    Fit means Django's own rule (at least SECRET_KEY_MIN_LENGTH characters of which
    SECRET_KEY_MIN_UNIQUE_CHARACTERS distinct, not starting with django-insecure, the mark of the keys that
    `startproject` generates) and containing no development secret, so that a development secret with
    something added is refused too.
    """
    if not secret:
        raise ImproperlyConfigured("SECRET_KEY is not set: production needs a long random secret")
    distinct = len(set(secret))
    if secret.startswith("django-insecure"):
        flaw = "it starts with django-insecure, the mark of a key that Django generated for development"
    elif any(known in secret for known in (LOCAL_SECRET_KEY, TEST_SECRET_KEY)):
        flaw = "it contains the secret of the local or test settings"
    elif len(secret) < SECRET_KEY_MIN_LENGTH:
        flaw = f"it has {len(secret)} characters, production needs at least {SECRET_KEY_MIN_LENGTH}"
    elif distinct < SECRET_KEY_MIN_UNIQUE_CHARACTERS:
        flaw = (
            f"it has {distinct} distinct characters, production needs at least "
            f"{SECRET_KEY_MIN_UNIQUE_CHARACTERS}"
        )
    else:
        return secret
    raise ImproperlyConfigured(
        f"SECRET_KEY is a development or short secret ({flaw}): set a long random one, "
        "e.g. python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )


def cache_from_url(url: str) -> dict:
    """Django's CACHES entry for `url`: `locmem://` (this process only) or `redis://...`/`rediss://...`."""
    if url == "locmem://":
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    if url.startswith(("redis://", "rediss://")):
        return {"BACKEND": "league.core.cache.RedisCache", "LOCATION": url}
    raise ImproperlyConfigured(f"CACHE_URL must be locmem:// or redis://host:port/db, not {url!r}")


# The cache holds the API's throttle counts: processes that share it share one count per client.
CACHES = {"default": cache_from_url(env.text("CACHE_URL", "locmem://"))}

# Client addresses (logins and API throttles): behind TRUSTED_PROXY_COUNT proxies (the TLS proxy) the client
# address comes from X-Forwarded-For; with none the header is ignored (see league.core.throttling).
TRUSTED_PROXY_COUNT = env.number("TRUSTED_PROXY_COUNT", 0)

# Failed logins (django-axes, on every login page and the admin): a (user name, client address) pair is
# locked after AXES_FAILURE_LIMIT failures, an address after LOGIN_ADDRESS_FAILURE_LIMIT over all names,
# each for AXES_COOLOFF_TIME after the last failure. A successful login clears its pair's failures.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "league.core.throttling.LoginLockoutHandler"
AXES_CLIENT_IP_CALLABLE = "league.core.throttling.client_address"
AXES_USERNAME_CALLABLE = "league.core.throttling.attempted_username"
AXES_LOCKOUT_CALLABLE = "league.core.throttling.lockout_response"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = env.number("LOGIN_FAILURE_LIMIT", 5, minimum=1)
# Sized for a venue where a hundred phones share one address (three failures each).
LOGIN_ADDRESS_FAILURE_LIMIT = env.number("LOGIN_ADDRESS_FAILURE_LIMIT", 300, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env.number("LOGIN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False  # no banner on every manage.py command; failures are still logged

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "league.api.throttling.ThrottledTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_THROTTLE_CLASSES": [
        "league.api.throttling.AnonymousThrottle",
        "league.api.throttling.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.rate("API_RATE_ANONYMOUS", "600/minute"),
        "user": env.rate("API_RATE_USER", "1200/minute"),
        "failed_token": env.rate("API_RATE_FAILED_TOKENS", "30/hour"),
    },
    "DEFAULT_PERMISSION_CLASSES": ["league.api.permissions.StaffWritesOthersRead"],
    "DEFAULT_PARSER_CLASSES": [
        "league.api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # JSON only, errors included: no browsable HTML API (people read the API in the docs at /api/docs/).
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "league.api.filters.FilterBackend",
        "league.api.filters.OrderingFilter",
    ],
    "DEFAULT_SCHEMA_CLASS": "league.api.schema.AutoSchema",
    "EXCEPTION_HANDLER": "league.api.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Pecking Order API",
    "DESCRIPTION": "Players, matches, versioned results and ratings of the Pecking Order league.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # No validator badge: it would load an image from swagger.io (refused by the Content-Security-Policy)
    # and tell that site where the schema is.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "ErrorCode": "league.api.errors.ERROR_CODES",
        "ByeRequestKindEnum": "league.tournaments.models.ByeRequest.Kind",
        "ChallengeStatusEnum": "league.bots.models.Challenge.Status",
        "LeagueStatusEnum": "league.bots.models.BotLeague.Status",
        "VersionTestStateEnum": "league.bots.models.VersionTest.State",
        "VersionTestVerdictEnum": "league.bots.models.VersionTest.Verdict",
        "PenaltyKindEnum": "league.tournaments.floor_models.Penalty.Kind",
        "TableTimerStateEnum": "league.api.tournaments.floor.TIMER_STATES",
    },
}


def broker_settings(url: str, root: Path = VAR_DIR / "broker") -> tuple[str, dict]:
    """The broker URL and its transport options; the filesystem broker keeps its folders under `root`."""
    if url.startswith("filesystem://"):
        folders = {name: root / name for name in ("queue", "processed", "control")}
        for folder in folders.values():
            folder.mkdir(parents=True, exist_ok=True)
        return url, {
            "data_folder_in": str(folders["queue"]),
            "data_folder_out": str(folders["queue"]),
            "processed_folder": str(folders["processed"]),
            "control_folder": str(folders["control"]),
            "store_processed": False,
        }
    return url, {}


CELERY_BROKER_URL, CELERY_BROKER_TRANSPORT_OPTIONS = broker_settings(
    env.text("CELERY_BROKER_URL", "filesystem://localhost/")
)
# `manage.py serve` counts its restarts of the worker and beat here, for /health/ (league/site/restarts.py).
SERVE_RESTARTS_FILE = VAR_DIR / "serve-restarts.json"
# Seconds `serve` waits before its first restart of a process that died (doubled for each restart in a row).
SERVE_RESTART_DELAY = env.text("PECKING_ORDER_RESTART_DELAY", "1")
# kombu's filesystem transport with whole-file writes and reads (league/core/broker.py); other URLs use
# the transport their scheme names.
CELERY_BROKER_TRANSPORT = (
    "league.core.broker:Transport" if CELERY_BROKER_URL.startswith("filesystem://") else None
)


def celery_queues(default: str, notifications: str) -> tuple[tuple[Queue, ...], dict[str, dict[str, str]]]:
    """The queues a worker consumes by default (both) and the routes that send notifications' and webhooks'
    tasks to their own queue, so a slow mail server or receiver never holds up bot leagues or ratings."""
    queues = (Queue(default, routing_key=default), Queue(notifications, routing_key=notifications))
    return queues, {"league.notifications.tasks.*": {"queue": notifications, "routing_key": notifications}}


# A worker started without -Q consumes both queues (`make run`'s does); a deployment may run workers of its
# own for the notifications queue (`celery -A league worker -Q notifications`).
CELERY_TASK_DEFAULT_QUEUE = "celery"
NOTIFICATIONS_QUEUE = "notifications"
CELERY_TASK_QUEUES, CELERY_TASK_ROUTES = celery_queues(CELERY_TASK_DEFAULT_QUEUE, NOTIFICATIONS_QUEUE)
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_TASK_TIME_LIMIT = 15 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 14 * 60
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_TIMEZONE = TIME_ZONE

# The sandbox of external bot programs (league.programs.sandbox; docs/bot-protocol.md, "Setting up a worker"):
# bubblewrap, run as one of SANDBOX_SLOTS slot users (po-sandbox-0, ...: .ci/sandbox-users creates them).
SANDBOX_BWRAP = env.text("SANDBOX_BWRAP", "/usr/bin/bwrap")
SANDBOX_USERS = tuple(
    f"{env.text('SANDBOX_USER_PREFIX', 'po-sandbox-')}{n}"
    for n in range(env.number("SANDBOX_SLOTS", 16, minimum=1))
)
SANDBOX_MAX_PROCESSES = env.number("SANDBOX_MAX_PROCESSES", 8, minimum=4)
SANDBOX_TMPFS_MB = env.number("SANDBOX_TMPFS_MB", 16, minimum=1)
SANDBOX_LOCK_DIR = env.text("SANDBOX_LOCK_DIR", "/tmp/pecking-order-sandbox")
# The memory caps (SANDBOX_MAX_PROCESSES x a bot's memory_mb) of the seats running at once on one machine, in
# every worker process sharing SANDBOX_LOCK_DIR, stay within this many MB; a bot whose own cap exceeds it is
# refused when it is registered. Set it alike on the web servers and on every worker.
SANDBOX_MEMORY_BUDGET_MB = env.number("SANDBOX_MEMORY_BUDGET_MB", 16384, minimum=256)

# Uploaded bot programs (league.bots.uploads, league.programs.archives; docs/bot-leagues.md, "Uploading a
# bot").
BOT_UPLOAD_MAX_BYTES = env.number("BOT_UPLOAD_MAX_BYTES", 1 << 20, minimum=1024)  # the upload, compressed
BOT_UPLOAD_MAX_EXTRACTED_BYTES = env.number("BOT_UPLOAD_MAX_EXTRACTED_BYTES", 8 << 20, minimum=1024)
BOT_UPLOAD_MAX_ENTRIES = env.number("BOT_UPLOAD_MAX_ENTRIES", 200, minimum=2)
BOT_UPLOAD_MAX_ENTRY_BYTES = env.number("BOT_UPLOAD_MAX_ENTRY_BYTES", 2 << 20, minimum=1024)
BOT_UPLOAD_MAX_RATIO = env.number("BOT_UPLOAD_MAX_RATIO", 100, minimum=2)  # uncompressed : compressed
BOT_UPLOAD_QUOTA_VERSIONS = env.number("BOT_UPLOAD_QUOTA_VERSIONS", 100, minimum=1)  # per user, all bots
BOT_UPLOAD_QUOTA_BYTES = env.number(
    "BOT_UPLOAD_QUOTA_BYTES", 20 << 20, minimum=1024
)  # per user, distinct uploads
BOT_UPLOADS_PER_USER_HOUR = env.number("BOT_UPLOADS_PER_USER_HOUR", 20, minimum=1)  # per user
# The check of an upload's modules (league.programs.checking): compiled by a worker in a child process under
# these bounds for all its modules together (CPU seconds, address space in MB, and a wall deadline).
BOT_CHECK_CPU_SECONDS = env.number("BOT_CHECK_CPU_SECONDS", 1, minimum=1)
BOT_CHECK_MEMORY_MB = env.number("BOT_CHECK_MEMORY_MB", 256, minimum=64)
BOT_CHECK_WALL_SECONDS = env.number("BOT_CHECK_WALL_SECONDS", 30, minimum=1)
# The check of a C or JavaScript upload runs in the sandbox (league.programs.building): cc compiles a C
# program under these bounds (per process: CPU seconds, address space; the whole compile: wall seconds,
# 1 MiB of messages, an executable of 1 MiB); node --check parses a JavaScript one under the same.
BOT_BUILD_CPU_SECONDS = env.number("BOT_BUILD_CPU_SECONDS", 20, minimum=1)
BOT_BUILD_MEMORY_MB = env.number("BOT_BUILD_MEMORY_MB", 512, minimum=128)
BOT_BUILD_WALL_SECONDS = env.number("BOT_BUILD_WALL_SECONDS", 60, minimum=1)
# An upload that passed its check plays its validation matches before it is ready
# (league.bots.services.validations).
BOT_VALIDATION = env.flag("BOT_VALIDATION", True)
# Each worker's cache of uploaded programs by hash (league.programs.program_cache), outside var/ (0700): under
# the system's temporary folder, one per account. The slot users read the one program a seat plays, so every
# folder above it must let them through (o+x); the cache itself is 0750, of the slot users' group.
PROGRAM_CACHE_DIR = env.text(
    "PROGRAM_CACHE_DIR", str(Path(tempfile.gettempdir()) / f"pecking-order-{os.getuid()}" / "programs")
)
# Request bodies (league.core.bodies): every one capped at REQUEST_BODY_MAX_BYTES before it is read, except
# the bot-upload page and endpoint (the upload's cap and BOT_UPLOAD_FORM_BYTES for the form's other fields and
# the multipart framing) and a tournament's page and batch registration (PARTICIPANTS_MAX_BODY_BYTES: a CSV of
# participants up to 1 MB, or a batch of up to 2,000 names coming back to be confirmed). Over its cap a
# request answers 413 unread. Gunicorn has no bound on bodies of its own: this is it (a proxy in front may
# set the same, e.g. nginx's client_max_body_size).
REQUEST_BODY_MAX_BYTES = env.number("REQUEST_BODY_MAX_BYTES", 256 << 10, minimum=16 << 10)
BOT_UPLOAD_FORM_BYTES = 64 << 10
PARTICIPANTS_MAX_BODY_BYTES = 2 << 20
LARGEST_BODY_BYTES = max(
    REQUEST_BODY_MAX_BYTES, BOT_UPLOAD_MAX_BYTES + BOT_UPLOAD_FORM_BYTES, PARTICIPANTS_MAX_BODY_BYTES
)
# Django's own bounds then never refuse what a cap lets through, and an uploaded file is kept in memory,
# never spooled to a temporary file.
DATA_UPLOAD_MAX_MEMORY_SIZE = LARGEST_BODY_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = LARGEST_BODY_BYTES
BOT_LOG_MATCHES = env.number("BOT_LOG_MATCHES", 200, minimum=1)  # program logs kept per bot version
# The starter kits the bot authors' docs offer as zip files (one folder per game: bot.py, bot.js, bot.c).
BOT_KITS_DIR = Path(env.text("BOT_KITS_DIR", str(BASE_DIR / "examples" / "kits")))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "server": {"class": "logging.StreamHandler", "formatter": "server"},
    },
    "root": {"handlers": ["console"], "level": env.text("LOG_LEVEL", "INFO")},
    # runserver's access log (Django's own format) follows LOG_LEVEL too: `manage.py serve` sets WARNING
    # unless --verbose.
    "loggers": {
        "django.server": {"handlers": ["server"], "level": env.text("LOG_LEVEL", "INFO"), "propagate": False}
    },
}
