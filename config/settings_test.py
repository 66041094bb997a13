"""Settings for the test suite: production settings with test-only secrets and no HTTPS redirect.

DATABASE_URL / REDIS_URL from the environment still apply (CI runs the suite twice).
"""

import os

os.environ.setdefault("SECRET_KEY", "test-only-not-secret")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("SESSION_COOKIE_SECURE", "0")
os.environ.setdefault("CSRF_COOKIE_SECURE", "0")
os.environ.setdefault("THROTTLE_USER_RATE", "100000/min")  # whole games are played in tests
os.environ.setdefault("THROTTLE_ANON_RATE", "100000/min")
# Replies in tests are unsigned, and no test asks the real DNS: the tests of the DKIM
# check (test_mail_authentication.py) turn it on, with keys and a zone of their own.
os.environ.setdefault("MAIL_AUTHENTICATE_SENDER", "0")
# The Mailgun inbound webhook is on in tests, signed with this key.
os.environ.setdefault("MAILGUN_WEBHOOK_SIGNING_KEY", "test-mailgun-signing-key")
os.environ.setdefault("BOT_PAUSE_SECONDS", "0,0")  # the computer answers at once in tests
# Every game that ends is reviewed (at once, tasks being eager): on a small budget here.
os.environ.setdefault("REVIEW_DECISION_STEPS", "200")
os.environ.setdefault("REVIEW_GAME_STEPS", "20000")
os.environ.setdefault("REVIEW_SAMPLES", "1")
# Webhooks deliver to the tests' receivers on 127.0.0.1, over plain HTTP.
os.environ.setdefault("WEBHOOK_ALLOW_PRIVATE_ADDRESSES", "1")
os.environ.setdefault("WEBHOOK_REQUIRE_HTTPS", "0")
# Pushes go to the tests' push service on 127.0.0.1, over plain HTTP.
os.environ.setdefault("PUSH_REQUIRE_HTTPS", "0")
os.environ.setdefault("RBANK_VAR_DIR", os.path.join(os.path.dirname(__file__), "..", "var", "test"))

from .settings import *  # noqa: F403

# Reviews go to the default queue, which each test worker takes under a name of its own
# (the "review" queue is shared by every test process): config.settings routes them.
# With TASK_QUEUES (the cluster's test), every queue carries the test's own prefix.
if not TASK_QUEUES:  # noqa: F405
    CELERY_TASK_ROUTES = {}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast users in tests
# A worker started by a test in another process is told by the environment to use the
# test's database and SMTP server, and to take its tasks from the broker.
EMAIL_BACKEND = os.environ.get(
    "RBANK_TEST_EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend"
)
CELERY_TASK_ALWAYS_EAGER = env_bool(  # noqa: F405
    "CELERY_TASK_ALWAYS_EAGER", "RBANK_TEST_DATABASE_NAME" not in os.environ
)
# The suite's processes share a Redis but not a database (event ids repeat): each test
# process and the web servers it starts have a channel of their own; the processes of a
# cluster (RBANK_TEST_CACHE, below: a test's or a bench's) share theirs, as a deployment's do.
STREAM_CHANNEL = os.environ.get("STREAM_CHANNEL") or (
    f"{os.environ['RBANK_TEST_CACHE']}events"
    if os.environ.get("RBANK_TEST_CACHE")
    else f"test-events-{os.getpid()}"
)
if "RBANK_TEST_DATABASE_NAME" in os.environ:
    DATABASES["default"]["NAME"] = os.environ["RBANK_TEST_DATABASE_NAME"]  # noqa: F405
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # noqa: F405
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not shared-cache memory: SQLite then waits for its write lock (the
    # row lock of select_for_update elsewhere) instead of failing at once. One file per
    # test process, so that two runs of the suite in one checkout never share one.
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3")  # noqa: F405
    }
if os.environ.get("RBANK_TEST_CACHE"):
    # A test's cluster (tests/service/test_cluster.py): its processes share one cache, as
    # a deployment's do: the settings' own (files under its VAR_DIR, or Redis) with this
    # prefix.
    CACHES = {"default": {**CACHES["default"], "KEY_PREFIX": os.environ["RBANK_TEST_CACHE"]}}  # noqa: F405
elif not CACHE_URL:  # noqa: F405
    # One process's memory, emptied before each test (tests/conftest.py), never files
    # that outlive a run.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
else:
    # A Redis shared by the suite's processes and kept between runs, where game ids
    # start again at 1: each process its own keys.
    CACHES = {"default": {**CACHES["default"], "KEY_PREFIX": f"test-{os.getpid()}"}}
ACCOUNT_RATE_LIMITS = False  # tests sign up many accounts from one address
# Tests render pages without running collectstatic: plain storage, files found in the apps.
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
