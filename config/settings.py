"""One settings module, driven by environment variables (see README, "Configuration").

With nothing set it runs on an embedded default: SQLite and a Celery broker kept
in files under ``var/``, so one command starts the whole service on a bare machine.
``DATABASE_URL`` and ``REDIS_URL`` switch to PostgreSQL and Redis.
"""

from __future__ import annotations

import os
from datetime import timedelta
from email.utils import getaddresses
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
import django_stubs_ext
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

# Django's generic classes (ModelAdmin[Game], ...) subscriptable at run time, as typed.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("RBANK_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_addresses(name: str) -> list[tuple[str, str]]:
    """``Ann <ann@example.com>, bob@example.com`` as Django's ADMINS: (name, address)."""
    return [(who, address) for who, address in getaddresses([os.environ.get(name, "")]) if address]


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-not-secret"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
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

# E-mail: SMTP to EMAIL_HOST:EMAIL_PORT. With no host: under DEBUG (make run), each
# e-mail kept as a file in MAIL_FOLDER with one line in the log, listed at /dev/mail/
# (lib/mailbox.py); otherwise printed whole on the console.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "lib.mailbox.MailFolderBackend"
    if DEBUG
    else "django.core.mail.backends.console.EmailBackend",
)
MAIL_FOLDER = Path(os.environ.get("MAIL_FOLDER", VAR_DIR / "mail"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Russian Bank <games@localhost>")
#: Seconds the SMTP connection waits on the server (each connect, read or write): a
#: hung server fails the attempt instead of holding the worker past its claim's lease.
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "30"))
# The outbox (games/notify/notifications.py): an e-mail has at most EMAIL_MAX_ATTEMPTS
# attempts; after the n-th failed one it waits EMAIL_RETRY_BACKOFF * 2**(n-1) seconds,
# at most EMAIL_RETRY_BACKOFF_MAX, then the minute sweep queues it again. A permanent
# refusal (5xx) fails it at once.
EMAIL_MAX_ATTEMPTS = int(os.environ.get("EMAIL_MAX_ATTEMPTS", "8"))
EMAIL_RETRY_BACKOFF = int(os.environ.get("EMAIL_RETRY_BACKOFF", "60"))
EMAIL_RETRY_BACKOFF_MAX = int(os.environ.get("EMAIL_RETRY_BACKOFF_MAX", "3600"))
if not 1 <= EMAIL_MAX_ATTEMPTS <= 1000:  # Notification.attempts is a small integer
    raise ImproperlyConfigured("EMAIL_MAX_ATTEMPTS must be from 1 to 1000")
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


# Play by mail (docs/play-by-mail.md): replies to ``play+...@MAIL_DOMAIN`` play, and
# bounces come back to ``bounce+...@MAIL_DOMAIN``. The SMTP receiver (``manage.py
# receive_mail``, which ``make run`` starts on 127.0.0.1:2525) takes mail for this
# domain only; its MX must point there. By default the site's own host name.
def _mail_domain(site_url: str) -> str:
    host = urlsplit(site_url).hostname or "localhost"
    return "localhost" if host.replace(".", "").isdigit() or ":" in host else host


MAIL_DOMAIN = os.environ.get("MAIL_DOMAIN", "").strip().lower() or _mail_domain(SITE_URL)
MAIL_RECEIVER_HOST = os.environ.get("MAIL_RECEIVER_HOST", "127.0.0.1")
MAIL_RECEIVER_PORT = int(os.environ.get("MAIL_RECEIVER_PORT", "2525"))
#: A certificate and its key (PEM files): the receiver then offers STARTTLS.
MAIL_TLS_CERT = os.environ.get("MAIL_TLS_CERT", "")
MAIL_TLS_KEY = os.environ.get("MAIL_TLS_KEY", "")
#: The largest message the receiver takes (bytes); a larger one is refused at once (552).
MAIL_MAX_BYTES = int(os.environ.get("MAIL_MAX_BYTES", str(1024 * 1024)))
#: Replies one sender may send in an hour; more are refused for now (451: their
#: server tries again later) by SMTP, and not acted on from a provider's webhook.
MAIL_RATE_PER_HOUR = int(os.environ.get("MAIL_RATE_PER_HOUR", "60"))
#: A reply is played only when one of its DKIM signatures is its From domain's
#: (mailplay/authentication.py; docs/play-by-mail.md, "Who wrote it"): without it,
#: anyone holding a reply address could play it under the player's From. On unless
#: DEBUG: `make run` (DEBUG=1) lets the demo players reply from a local mailbox, which
#: signs nothing. DNS lookups for it wait MAIL_DNS_TIMEOUT seconds at most.
MAIL_AUTHENTICATE_SENDER = env_bool("MAIL_AUTHENTICATE_SENDER", not DEBUG)
MAIL_DNS_TIMEOUT = float(os.environ.get("MAIL_DNS_TIMEOUT", "5"))
#: How long a claimed inbound message belongs to the worker handling it.
#: Each e-mail's envelope sender is its own signed bounce address at MAIL_DOMAIN, so a
#: bounce names the address that failed. Turn off when the SMTP relay accepts no
#: envelope sender at that domain (the e-mails then leave from DEFAULT_FROM_EMAIL).
MAIL_BOUNCE_ADDRESSES = env_bool("MAIL_BOUNCE_ADDRESSES", True)
MAIL_INBOUND_LEASE_SECONDS = float(os.environ.get("MAIL_INBOUND_LEASE_SECONDS", "300"))
MAIL_INBOUND_MAX_ATTEMPTS = int(os.environ.get("MAIL_INBOUND_MAX_ATTEMPTS", "5"))
# A hosted provider's inbound webhook (django-anymail): Mailgun, at
# /mail/inbound/mailgun/inbound/ when its webhook signing key is set.
ANYMAIL = {
    "MAILGUN_WEBHOOK_SIGNING_KEY": os.environ.get("MAILGUN_WEBHOOK_SIGNING_KEY", ""),
}


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


REDIS_URL = os.environ.get("REDIS_URL", "")
#: Seconds to wait for Redis to accept a connection: when it is down, a request gives
#: up soon (its e-mail waits in the outbox, throttling lets it through) instead of hanging.
REDIS_TIMEOUT = float(os.environ.get("REDIS_TIMEOUT", "2"))
CACHE_URL = os.environ.get("CACHE_URL") or (_next_redis_db(REDIS_URL) if REDIS_URL else "")
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
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

# Celery: Redis when REDIS_URL is set, else kombu's filesystem transport (no server),
# whose messages are written whole before a worker sees them (lib/broker.py).
BROKER_DIR = VAR_DIR / "broker"
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        "visibility_timeout": 3600,
        "socket_connect_timeout": REDIS_TIMEOUT,
    }
else:
    from lib.broker import SCHEME as _FILES

    CELERY_BROKER_URL = f"{_FILES}://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
        # A worker looks in the folder this often (kombu's default is 1 s): a reply by
        # e-mail is answered within a few tenths of a second, for a listing a tick.
        "polling_interval": float(os.environ.get("BROKER_POLLING_INTERVAL", "0.1")),
    }
    # Every process that queues or takes a task needs these, however it was started
    # (make run, gunicorn, a worker, manage.py): the settings make them.
    for _folder in ("queue", "processed", "control"):
        (BROKER_DIR / _folder).mkdir(parents=True, exist_ok=True)
# Queueing happens after the action committed; what fails to queue stays pending in
# the outbox for the minute sweep, so a request tries the broker briefly, not at length.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
#: How long a claimed outbox row belongs to the worker that claimed it; after that the
#: sweep gives it to another worker.
NOTIFICATION_LEASE_SECONDS = float(os.environ.get("NOTIFICATION_LEASE_SECONDS", "300"))
# Every task is stopped by its time limits: the soft one raises in the task (a send
# then counts as a failed attempt), the hard one kills the process running it. Both
# come before the lease ends, and the SMTP timeout before both, so no e-mail is still
# being sent when its row may be claimed again (and sent twice).
CELERY_TASK_SOFT_TIME_LIMIT = float(os.environ.get("CELERY_TASK_SOFT_TIME_LIMIT", "240"))
CELERY_TASK_TIME_LIMIT = float(os.environ.get("CELERY_TASK_TIME_LIMIT", "270"))
if not (
    0
    < EMAIL_TIMEOUT
    < CELERY_TASK_SOFT_TIME_LIMIT
    < CELERY_TASK_TIME_LIMIT
    < NOTIFICATION_LEASE_SECONDS
):
    raise ImproperlyConfigured(
        "the e-mail settings must keep 0 < EMAIL_TIMEOUT < CELERY_TASK_SOFT_TIME_LIMIT"
        " < CELERY_TASK_TIME_LIMIT < NOTIFICATION_LEASE_SECONDS (seconds): a send must"
        " end before its claim may pass to another worker"
    )
# The review of a finished game (docs/review.md) runs on the "review" queue, apart from
# the moves, with its own time limits; its CPU is bounded by the strong search's steps:
# at most REVIEW_DECISION_STEPS a decision, REVIEW_GAME_STEPS a game.
REVIEW_SOFT_TIME_LIMIT = float(os.environ.get("REVIEW_SOFT_TIME_LIMIT", "300"))
REVIEW_TIME_LIMIT = float(os.environ.get("REVIEW_TIME_LIMIT", "330"))
REVIEW_DECISION_STEPS = int(os.environ.get("REVIEW_DECISION_STEPS", "12000"))
REVIEW_GAME_STEPS = int(os.environ.get("REVIEW_GAME_STEPS", "2000000"))
REVIEW_SAMPLES = int(os.environ.get("REVIEW_SAMPLES", "8"))  # play-outs scoring each line

# Queues (docs/scaling.md): with TASK_QUEUES on, each kind of task goes to a queue of
# its own, so that workers can be given to each (``celery worker -Q email``) and a burst of
# one kind (a tournament round's computer players) never holds up another (the e-mails).
# Off (one worker takes everything, as make run), every task goes to one queue but the
# reviews, which always have their own (make run's reviewer takes it). A worker started
# without -Q takes from every queue. TASK_QUEUE_PREFIX: deployments (or test runs)
# sharing one broker each need their own names.
TASK_QUEUES = env_bool("TASK_QUEUES", False)
TASK_QUEUE_PREFIX = os.environ.get("TASK_QUEUE_PREFIX", "")
#: The queue of each task that does not go to ``default``.
QUEUE_OF_TASK = {
    "games.tasks.send_notification": "email",
    "games.tasks.send_digest": "email",
    "games.tasks.send_push": "email",
    "mailplay.tasks.handle_inbound": "inbound",
    "games.tasks.play_bot_turn": "computer",
    "games.tasks.answer_bot_stalemate": "computer",
    "webhooks.tasks.deliver": "webhooks",
    "games.tasks.review_game": "review",
}
TASK_QUEUE_NAMES = ("email", "inbound", "computer", "webhooks", "review", "default")
CELERY_TASK_ROUTES: dict[str, dict[str, str]] = {
    "games.tasks.review_game": {"queue": f"{TASK_QUEUE_PREFIX}review"}
}
if TASK_QUEUES:
    CELERY_TASK_DEFAULT_QUEUE = f"{TASK_QUEUE_PREFIX}default"
    CELERY_TASK_QUEUES: dict[str, dict[str, str]] = {
        f"{TASK_QUEUE_PREFIX}{name}": {} for name in TASK_QUEUE_NAMES
    }
    CELERY_TASK_ROUTES = {
        task: {"queue": f"{TASK_QUEUE_PREFIX}{queue}"} for task, queue in QUEUE_OF_TASK.items()
    }
elif TASK_QUEUE_PREFIX:
    CELERY_TASK_DEFAULT_QUEUE = f"{TASK_QUEUE_PREFIX}celery"
# The settings' LOGGING applies in workers and beat too (config/celery.py).
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The open game database (docs/open-database.md): its monthly files, and how long after
# a month's end it is written (a game that ended a moment before midnight has long
# committed by then).
OPEN_DATABASE_DIR = Path(os.environ.get("OPEN_DATABASE_DIR", VAR_DIR / "database"))
OPEN_DATABASE_CLOSE_AFTER = timedelta(
    hours=float(os.environ.get("OPEN_DATABASE_CLOSE_AFTER_HOURS", "6"))
)

CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Beat touches a heartbeat file at every tick, at least once a minute; its health
# check (python -m config.healthcheck beat) wants it younger than three.
CELERY_BEAT_SCHEDULER = "config.beat:HeartbeatScheduler"
CELERY_BEAT_MAX_LOOP_INTERVAL = 60
BEAT_HEARTBEAT_FILE = VAR_DIR / "beat-heartbeat"
BEAT_HEARTBEAT_MAX_AGE = 180
#: One beat sends the schedule's tasks (config/beat.py): it holds a database lock,
#: renewed at each tick, which another beat takes this long after the holder died.
BEAT_LOCK_SECONDS = float(os.environ.get("BEAT_LOCK_SECONDS", "150"))
#: The minute sweeps' period (deadlines, inbound mail, webhooks, competitions).
SWEEP_SECONDS = float(os.environ.get("SWEEP_SECONDS", "60"))
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # Deadlines are indexed columns scanned here, never ETA tasks days ahead.
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": SWEEP_SECONDS},
    "daily-digests": {
        "task": "games.tasks.send_digests",
        "schedule": crontab(hour=int(os.environ.get("DIGEST_HOUR_UTC", "7")), minute=0),
    },
    # Sent e-mails and idempotency keys older than RETENTION_DAYS, events older than
    # EVENT_RETENTION_DAYS, deleted in batches.
    "daily-prune": {"task": "games.tasks.prune_old_rows", "schedule": crontab(hour=3, minute=30)},
    # Inbound mail a worker never took up (the broker was down, a worker died).
    "sweep-inbound": {"task": "mailplay.tasks.sweep_inbound", "schedule": SWEEP_SECONDS},
    # Received mail handled more than RETENTION_DAYS ago.
    "daily-prune-inbound": {
        "task": "mailplay.tasks.prune_inbound",
        "schedule": crontab(hour=3, minute=40),
    },
    # Webhooks whose deliveries are due again (a lost task, a back-off over).
    "sweep-webhooks": {"task": "webhooks.tasks.sweep", "schedule": SWEEP_SECONDS},
    # Competitions due to start (their date has come) and rounds left behind.
    "sweep-competitions": {"task": "competitions.tasks.sweep", "schedule": SWEEP_SECONDS},
    # The open database: each month closed since the last run, written once.
    "open-database": {
        "task": "games.tasks.write_database_months",
        "schedule": crontab(hour=6, minute=20),
    },
    # Webhook deliveries written more than RETENTION_DAYS ago.
    "daily-prune-webhooks": {
        "task": "webhooks.tasks.prune",
        "schedule": crontab(hour=3, minute=50),
    },
}

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
SERVER_EMAIL = os.environ.get("SERVER_EMAIL") or DEFAULT_FROM_EMAIL  # error e-mails' sender
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
