"""Task settings, imported by config/settings.py: Celery's broker and workers, the
tasks' time limits and leases, the queues of each kind of task, and beat's schedule."""

from __future__ import annotations

import os

from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from config.env import REDIS_TIMEOUT, REDIS_URL, VAR_DIR, env_bool
from config.settings_mail import EMAIL_TIMEOUT

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
