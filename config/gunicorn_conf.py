"""gunicorn's settings for the web container (docker/Dockerfile), from the environment.

gunicorn -c python:config.gunicorn_conf config.asgi:application

Each worker is a uvicorn event loop (ASGI): the open event streams of a worker wait
there at no thread's cost, and the other views run in its threads.
"""

import os

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
#: Worker processes: about two per core of the container.
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
worker_class = "uvicorn_worker.UvicornWorker"
#: A worker silent this long (a request stuck) is killed and replaced; on a restart,
#: requests under way get this long to finish.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))
#: Behind the TLS proxy, which reuses its connections.
keepalive = 5
#: Workers are not replaced after a number of requests: nothing leaks (a worker's
#: memory levels off at about 115 MB within its first thousand requests and stays
#: there), and each replacement cost a visible pause while the new worker loaded the
#: project. GUNICORN_MAX_REQUESTS turns it on should a leak appear; the jitter (half
#: of it unless set) keeps the workers from restarting together (docs/operating.md).
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS") or 0)
max_requests_jitter = int(os.environ.get("GUNICORN_MAX_REQUESTS_JITTER") or max_requests // 2)
#: The workers' heartbeat files in memory: a slow container disk never looks like a hang.
worker_tmp_dir = "/dev/shm"
accesslog = "-"
