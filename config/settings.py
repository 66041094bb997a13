"""The settings, driven by environment variables (see README, "Configuration").

With nothing set it runs on an embedded default: SQLite and a Celery broker kept
in files under ``var/``, so one command starts the whole service on a bare machine.
``DATABASE_URL`` and ``REDIS_URL`` switch to PostgreSQL and Redis.

Django reads this module only (DJANGO_SETTINGS_MODULE), which holds every setting:
its own, and those of the modules it imports, one per job: config/env.py (the
environment's helpers and the settings the others derive theirs from),
config/settings_mail.py (e-mail, play by mail) and config/settings_tasks.py (Celery,
the queues, beat's schedule).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

# Each as itself (re-exported): settings, and helpers config/settings_test.py reads.
from config.env import BASE_DIR as BASE_DIR
from config.env import DEBUG as DEBUG
from config.env import REDIS_TIMEOUT as REDIS_TIMEOUT
from config.env import REDIS_URL as REDIS_URL
from config.env import SITE_URL as SITE_URL
from config.env import VAR_DIR as VAR_DIR
from config.env import env_addresses as env_addresses
from config.env import env_bool as env_bool
from config.env import env_list as env_list
from config.settings_mail import *  # noqa: F403 (the e-mail and play-by-mail settings)
from config.settings_tasks import *  # noqa: F403 (Celery, the queues, beat's schedule)

# Django's generic classes (ModelAdmin[Game], ...) subscriptable at run time, as typed.
django_stubs_ext.monkeypatch()

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-not-secret"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
#: The site's name in every e-mail, ours and django-allauth's (accounts/adapter.py).
SITE_NAME = os.environ.get("SITE_NAME", "Russian Bank")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "allauth",
    "allauth.account",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "accounts",
    "games",
    "mailplay",
    "webhooks",
    "competitions",
]

MIDDLEWARE = [
    # Outermost: a request that found the database out of reach, in a middleware below
    # or in the view, is answered 503 with Retry-After, not 500, with DEBUG on too.
    "lib.api_errors.DatabaseUnavailableMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A game page's poll that finds nothing new: answered from the cache, no query.
    "games.pages.poll.IdlePollMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The browser's language; a signed-in player's own choice overrides it (below).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.PlayerTimeZoneMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"  # the test server; the web serves ASGI
ASGI_APPLICATION = "config.asgi.application"

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
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
    )
}
#: PostgreSQL: each process keeps a pool of at most ``DB_POOL_MAX_SIZE`` connections,
#: which every request and task borrows and gives back when it ends. Under ASGI each
#: request runs in a thread of its own, so a connection kept per thread (CONN_MAX_AGE)
#: would be a new connection per request, some left open: the pool bounds them per
#: process whatever the server (docs/operating.md, "Database connections").
DB_POOL = env_bool("DB_POOL", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and DB_POOL:
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them instead
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DB_POOL_MIN_SIZE", "1")),
        "max_size": int(os.environ.get("DB_POOL_MAX_SIZE", "6")),
        # A request waits this long for a free connection before it fails (503).
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
        # Idle connections above min_size are closed after this long.
        "max_idle": float(os.environ.get("DB_POOL_MAX_IDLE", "300")),
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(parents=True, exist_ok=True)  # the embedded default needs no set-up
    # WAL lets the web process read while the worker writes; IMMEDIATE transactions
    # take the write lock up front, which is what select_for_update means elsewhere.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Accounts (django-allauth): sign-up with e-mail verification, login by username or
# e-mail, password reset by e-mail.
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
# The subjects of its e-mails start with the site's name in their language
# (accounts.adapter.AccountAdapter.format_email_subject).
# The site's name in allauth's e-mails; a followed e-mail invitation as proof of the
# invited address (accounts/adapter.py).
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "/"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# English, French (Crapette) and German (Zank-Patience): a player's own choice (their
# profile's), else the browser's Accept-Language, else English. Catalogues in locale/.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français"), ("de", "Deutsch")]
#: How each language writes dates and times (config/formats/).
FORMAT_MODULE_PATH = ["config.formats"]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", VAR_DIR / "static"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Security: on by default outside DEBUG (manage.py check --deploy is clean).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
# A CSRF refusal under /api/ in the API's error shape, not Django's page.
CSRF_FAILURE_VIEW = "lib.api_errors.csrf_failure"
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
# Behind a TLS-terminating proxy (docker/compose.yml publishes the web port on
# 127.0.0.1 only, for that proxy): trust its X-Forwarded-Proto. Off when the app is
# reached directly, or any client could claim HTTPS.
if env_bool("BEHIND_TLS_PROXY", not DEBUG):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Health checks ask over plain HTTP from inside the container: no redirect to HTTPS.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
X_FRAME_OPTIONS = "DENY"

# E-mail (SMTP, the development mailbox, the outbox's retries) and play by mail:
# config/settings_mail.py.
#: Days a sent, failed or outdated e-mail and an idempotency key are kept (games/retention.py).
RETENTION_DAYS = int(os.environ.get("RETENTION_DAYS", "30"))
if RETENTION_DAYS < 1:
    raise ImproperlyConfigured("RETENTION_DAYS must be at least 1")

# The event stream (docs/api-events.md): events kept this many days for clients that
# reconnect with Last-Event-ID; an idle stream's heartbeat; without Redis, how often each
# web process reads the events table for what other processes (the worker) wrote.
EVENT_RETENTION_DAYS = int(os.environ.get("EVENT_RETENTION_DAYS", "7"))
if EVENT_RETENTION_DAYS < 1:
    raise ImproperlyConfigured("EVENT_RETENTION_DAYS must be at least 1")
STREAM_HEARTBEAT_SECONDS = float(os.environ.get("STREAM_HEARTBEAT_SECONDS", "20"))
#: A player counts as looking at a game this long after its page, a poll of it or its
#: stream last said so; meanwhile no "your turn" e-mail is sent for it (games/play/presence.py).
PRESENCE_SECONDS = int(os.environ.get("PRESENCE_SECONDS", "180"))
STREAM_POLL_SECONDS = float(os.environ.get("STREAM_POLL_SECONDS", "0.05"))
#: With Redis, how often each web process holding streams reads the events table all the
#: same: what a lost publication (Redis away a moment) did not bring arrives then.
STREAM_SAFETY_POLL_SECONDS = float(os.environ.get("STREAM_SAFETY_POLL_SECONDS", "5"))
#: How often each web process checks that its streams' credentials still hold (a revoked
#: token, a deleted account or an ended session ends its streams): what no process told
#: it at once (through Redis) is found then.
STREAM_CREDENTIAL_SECONDS = float(os.environ.get("STREAM_CREDENTIAL_SECONDS", "2"))
#: Open streams one account may hold at once, on all the web processes together (each tab
#: or client is one). Each is a lease its process renews; a process that dies stops
#: renewing, and its streams stop counting STREAM_LEASE_SECONDS later.
STREAM_MAX_PER_USER = int(os.environ.get("STREAM_MAX_PER_USER", "8"))
STREAM_LEASE_SECONDS = float(os.environ.get("STREAM_LEASE_SECONDS", "30"))
#: The Redis channel of the events (deployments sharing one Redis each need their own).
STREAM_CHANNEL = os.environ.get("STREAM_CHANNEL", "rbank:events")

# Push notifications (docs/notifications.md): Web Push with VAPID (RFC 8292). The key pair
# is the server's identity to the browsers' push services: VAPID_PRIVATE_KEY (PEM, or
# the raw key in base64url), else the file VAPID_KEY_FILE, which `manage.py
# make_vapid_keys` writes (and `make run` on first start). Never in the repository.
# Without a key, push is off and the account page says so. VAPID_SUBJECT is the
# contact the push services may write to (mailto: or https:).
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_KEY_FILE = Path(os.environ.get("VAPID_KEY_FILE", VAR_DIR / "vapid-private.pem"))
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:games@localhost")
# A push has at most PUSH_MAX_ATTEMPTS attempts, waiting PUSH_RETRY_BACKOFF * 2**(n-1)
# seconds after the n-th failure (at most PUSH_RETRY_BACKOFF_MAX); each POST waits
# PUSH_TIMEOUT seconds at most; the push service keeps an undelivered message PUSH_TTL
# seconds (a device switched off for the night still gets its "your turn").
PUSH_MAX_ATTEMPTS = int(os.environ.get("PUSH_MAX_ATTEMPTS", "6"))
PUSH_RETRY_BACKOFF = int(os.environ.get("PUSH_RETRY_BACKOFF", "60"))
PUSH_RETRY_BACKOFF_MAX = int(os.environ.get("PUSH_RETRY_BACKOFF_MAX", "3600"))
PUSH_TIMEOUT = float(os.environ.get("PUSH_TIMEOUT", "10"))
PUSH_TTL = int(os.environ.get("PUSH_TTL", str(2 * 24 * 3600)))
#: Browsers' push services are all https; the tests' own receiver is plain http.
PUSH_REQUIRE_HTTPS = env_bool("PUSH_REQUIRE_HTTPS", not DEBUG)
PUSH_LEASE_SECONDS = float(os.environ.get("PUSH_LEASE_SECONDS", "300"))
if not 1 <= PUSH_MAX_ATTEMPTS <= 1000:  # PushMessage.attempts is a small integer
    raise ImproperlyConfigured("PUSH_MAX_ATTEMPTS must be from 1 to 1000")
if not 0 < PUSH_TIMEOUT <= 60:
    raise ImproperlyConfigured("PUSH_TIMEOUT must be more than 0 and at most 60 seconds")

# Webhooks (docs/webhooks.md): a player's events POSTed, signed, to their URLs, one at a
# time in order. After the n-th failed attempt in a row a webhook waits
# WEBHOOK_RETRY_BACKOFF * 2**(n-1) seconds, at most WEBHOOK_RETRY_BACKOFF_MAX; a delivery
# gives up after WEBHOOK_MAX_ATTEMPTS attempts, a webhook is turned off after
# WEBHOOK_DISABLE_AFTER failures in a row. Outside DEBUG a webhook's host must be public
# (checked again at each delivery, which connects to the address checked) and its URL
# https: webhooks cannot probe the server's own network.
WEBHOOK_ALLOW_PRIVATE_ADDRESSES = env_bool("WEBHOOK_ALLOW_PRIVATE_ADDRESSES", DEBUG)
WEBHOOK_REQUIRE_HTTPS = env_bool("WEBHOOK_REQUIRE_HTTPS", not DEBUG)
#: Seconds to connect, and for each read of the answer.
WEBHOOK_TIMEOUT = float(os.environ.get("WEBHOOK_TIMEOUT", "10"))
WEBHOOK_MAX_ATTEMPTS = int(os.environ.get("WEBHOOK_MAX_ATTEMPTS", "10"))
WEBHOOK_RETRY_BACKOFF = int(os.environ.get("WEBHOOK_RETRY_BACKOFF", "60"))
WEBHOOK_RETRY_BACKOFF_MAX = int(os.environ.get("WEBHOOK_RETRY_BACKOFF_MAX", "3600"))
WEBHOOK_DISABLE_AFTER = int(os.environ.get("WEBHOOK_DISABLE_AFTER", "20"))
if not 0 < WEBHOOK_TIMEOUT <= 60:  # a task makes deliveries for a minute, then queues itself
    raise ImproperlyConfigured("WEBHOOK_TIMEOUT must be more than 0 and at most 60 seconds")
if not 1 <= WEBHOOK_MAX_ATTEMPTS <= 1000:  # Delivery.attempts is a small integer
    raise ImproperlyConfigured("WEBHOOK_MAX_ATTEMPTS must be from 1 to 1000")
if WEBHOOK_DISABLE_AFTER < 1:
    raise ImproperlyConfigured("WEBHOOK_DISABLE_AFTER must be at least 1")

#: Seconds a computer player waits before it plays, drawn between these two (a person
#: does not answer at once; nor does a game by correspondence need it to).
BOT_PAUSE_SECONDS = tuple(float(x) for x in os.environ.get("BOT_PAUSE_SECONDS", "3,12").split(","))[
    :2
]


# The cache (API throttling counts, the game pages' idle polls): Redis when REDIS_URL
# is set, else files under VAR_DIR, which every process of ``make run`` shares (a move
# the worker makes must reach the web's polls).
# The cache uses the next Redis database after the broker's: clearing the cache
# (FLUSHDB) must never drop queued tasks.
def _next_redis_db(url: str) -> str:
    parts = urlsplit(url)
    db = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{(db + 1) % 16}"))


CACHE_URL = os.environ.get("CACHE_URL") or (_next_redis_db(REDIS_URL) if REDIS_URL else "")
CACHES = {
    "default": (
        {
            # Django's, keeping one client per connection pool (lib/cache.py).
            "BACKEND": "lib.cache.RedisCache",
            "LOCATION": CACHE_URL,
            "OPTIONS": {"socket_connect_timeout": REDIS_TIMEOUT},
        }
        if CACHE_URL
        else {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        }
    )
}

# Celery's broker and workers, the tasks' time limits, the queues and beat's schedule:
# config/settings_tasks.py.

# The open game database (docs/open-database.md): its monthly files, and how long after
# a month's end it is written (a game that ended a moment before midnight has long
# committed by then).
OPEN_DATABASE_DIR = Path(os.environ.get("OPEN_DATABASE_DIR", VAR_DIR / "database"))
OPEN_DATABASE_CLOSE_AFTER = timedelta(
    hours=float(os.environ.get("OPEN_DATABASE_CLOSE_AFTER_HOURS", "6"))
)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "lib.api_errors.api_exception_handler",
    # JSON only: a form's flat fields cannot carry a list of moves or a challenge's
    # options, and the schema then promises what the API reads.
    "DEFAULT_PARSER_CLASSES": ["lib.parsers.BoundedJSONParser"],
    "DEFAULT_THROTTLE_CLASSES": [
        "lib.throttles.AnonRateThrottle",
        "lib.throttles.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("THROTTLE_ANON_RATE", "60/min"),
        "user": os.environ.get("THROTTLE_USER_RATE", "1200/min"),
    },
    "DEFAULT_PAGINATION_CLASS": "lib.pagination.Pages",
    "PAGE_SIZE": 50,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Russian Bank by mail API",
    "DESCRIPTION": "Play Russian Bank by correspondence. Moves use the public notation.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from the site's own static files (drf-spectacular-sidecar), not a CDN,
    # and no call to the public validator.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    # Requests and responses as separate components: a request names every field it
    # takes and no other (the API refuses unknown fields), a response what it sends.
    "COMPONENT_SPLIT_REQUEST": True,
    # One name for the choice every e-mail event takes.
    "ENUM_NAME_OVERRIDES": {"NotificationModeEnum": "accounts.notices.NOTIFICATION_MODES"},
    # Ids in paths (lib/converters.py): at most 18 digits.
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "minimum": 0, "maximum": 999_999_999_999_999_999}
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "lib.openapi.closed_request_bodies",
        "games.api.schema.game_request_bodies",
        "competitions.serializers.competition_request_body",
    ],
}

# Logs: one line per event on the console, at LOG_LEVEL (the app's events:
# docs/operating.md). Every ERROR, a request's or a task's, is also e-mailed to ADMINS
# ("Ann <ann@example.com>, bob@example.com") and sent to Sentry when SENTRY_DSN is set.
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()
ADMINS = env_addresses("ADMINS")
SERVER_EMAIL = os.environ.get("SERVER_EMAIL") or DEFAULT_FROM_EMAIL  # noqa: F405 error e-mails' sender
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "filters": {
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
        "not_a_health_check": {
            "()": "django.utils.log.CallbackFilter",
            "callback": "ext://lib.logs.not_a_health_check",
        },
        # No reply address is written whole (docs/play-by-mail.md): aiosmtpd's own
        # lines name each recipient.
        "hide_signatures": {
            "()": "django.utils.log.CallbackFilter",
            "callback": "ext://lib.logs.hide_signatures",
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "line",
            "filters": ["hide_signatures"],
        },
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false", "hide_signatures"],
        },
    },
    "root": {"handlers": ["console", "mail_admins"], "level": LOG_LEVEL},
    # Django's own loggers hand their lines to the root's handlers (so an error is
    # e-mailed once), instead of Django's default handlers.
    "loggers": {
        "django": {"handlers": [], "level": LOG_LEVEL},
        "django.request": {"filters": ["not_a_health_check"]},
    },
}

SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    from config.monitoring import start_sentry

    start_sentry(SENTRY_DSN)
