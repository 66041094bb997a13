"""``make cluster``: on this machine, what a production deployment runs on several:
``WEB`` web processes (uvicorn, ASGI) behind nginx, ``WORKERS`` Celery workers on the
queues of each kind of task, one beat and the mail receiver, until Ctrl-C.

    make cluster WEB=4 WORKERS=3 PORT=8000

nginx (Debian's: ``scripts/system-deps.sh nginx``) listens on ``PORT`` and spreads the
requests over the web processes on ``WEB_PORT``, ``WEB_PORT``+1, ... (by default the
ports after ``PORT``). Its configuration, pid file and temporary files are written
under ``var/cluster/`` at each start; it runs in the foreground, as a child like the
others. The database and broker are those of the settings: ``DATABASE_URL`` and
``REDIS_URL`` for PostgreSQL and Redis (what a cluster is for), else SQLite and the
broker in files, which serve one machine. docs/scaling.md says what changes with size.

A part that dies is started again (as a service manager would), so that a killed
worker or web process shows what the others do meanwhile; one that keeps dying at
start stops everything. Ctrl-C (or SIGTERM) stops all.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from config.run import ROOT, _stop, stop_on_signals
from config.run import port as port_of

#: The queues each kind of task goes to (config/settings_tasks.py, TASK_QUEUES).
QUEUES = ("email", "inbound", "computer", "webhooks", "review", "default")
#: A part that dies this soon after it started, this many times running, stops everything.
QUICK_DEATH_SECONDS, QUICK_DEATHS = 5.0, 3


def count(environ: Mapping[str, str], name: str, default: int) -> int:
    """``environ[name]`` as a count from 1 to 64; exits with one line if it is none."""
    text = environ.get(name, "").strip() or str(default)
    if not text.isdigit() or not 1 <= int(text) <= 64:
        sys.exit(f"{name} must be a number from 1 to 64, not {text!r}")
    return int(text)


def worker_queues(workers: int, prefix: str = "") -> list[list[str]]:
    """The queues of each of ``workers`` workers: every queue has a worker; with fewer
    workers than queues, they share them out; with more, the rest take every queue."""
    names = [f"{prefix}{queue}" for queue in QUEUES]
    if workers < len(names):
        return [names[i::workers] for i in range(workers)]
    return [[name] for name in names] + [list(names) for _ in range(workers - len(names))]


#: How nginx passes a request on to the web processes: here and in the compose file's
#: proxy (docker/nginx.conf, which a test holds to these lines).
PROXIED = """\
            proxy_pass http://web;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            # A stream's events go out as they come; it stays open for hours.
            proxy_buffering off;
            proxy_read_timeout 1h;
            # A POST is never sent twice: nginx tries another process only for a request
            # no process has begun (the API's Idempotency-Key covers the client's retry).
            proxy_next_upstream error timeout;
"""


def nginx_conf(var: Path, port: int, web_ports: list[int]) -> str:
    """nginx in front of the web processes: each request to the one with the fewest
    open (streams are long), the events passed on at once, its files under ``var``."""
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=0;" for p in web_ports)
    temp = var / "nginx-temp"
    user = "user root root;\n" if os.geteuid() == 0 else ""  # its files are root's too
    return f"""{user}worker_processes 1;
daemon off;
pid {var / "nginx.pid"};
error_log stderr warn;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {temp / "body"};
    proxy_temp_path {temp / "proxy"};
    fastcgi_temp_path {temp / "fastcgi"};
    uwsgi_temp_path {temp / "uwsgi"};
    scgi_temp_path {temp / "scgi"};
    client_max_body_size 2m;
    upstream web {{
        least_conn;
{servers}
        keepalive 64;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
{PROXIED}        }}
    }}
}}
"""


def find_nginx() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else "")
    if not found:
        sys.exit("make cluster needs nginx: run `scripts/system-deps.sh nginx` (make cluster does)")
    return found


@dataclass
class Part:
    """One process of the cluster, started again when it dies."""

    name: str
    cmd: list[str]
    env: dict[str, str]
    var: Path
    proc: subprocess.Popen[str] | None = None
    started: float = 0.0
    quick_deaths: int = 0

    def start(self) -> None:
        self.proc = subprocess.Popen(
            self.cmd,
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self.started = time.monotonic()
        # Its process group's leader, for whoever wants to stop or kill one part.
        (self.var / f"{self.name}.pid").write_text(f"{self.proc.pid}\n", encoding="utf-8")
        threading.Thread(target=_pipe, args=(self.name, self.proc), daemon=True).start()


_print_lock = threading.Lock()


def _pipe(name: str, proc: subprocess.Popen[str]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        with _print_lock:
            sys.stdout.write(f"{name:>9} | {line}")
            sys.stdout.flush()


def _env(port: int) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("SITE_URL", f"http://127.0.0.1:{port}")
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    env.setdefault("DEBUG", "1")
    env.setdefault("PYTHONUNBUFFERED", "1")
    env["TASK_QUEUES"] = "1"  # each kind of task on its queue, for the workers below
    return env


def parts(environ: Mapping[str, str], var: Path) -> list[Part]:
    """Every process of the cluster, in the order they start (nginx last)."""
    port = port_of(environ)
    webs, workers = count(environ, "WEB", 2), count(environ, "WORKERS", 2)
    first = int(environ.get("WEB_PORT", "").strip() or port + 1)
    web_ports = [first + i for i in range(webs)]
    env = _env(port)
    python = sys.executable
    celery = [python, "-m", "celery", "-A", "config"]
    concurrency = environ.get("WORKER_CONCURRENCY", "2")
    result = [
        Part(
            f"web-{i + 1}",
            [
                *(python, "-m", "uvicorn", "config.asgi:application"),
                *("--host", "127.0.0.1", "--port", str(p)),
                *("--timeout-graceful-shutdown", "3", "--no-access-log"),
            ],
            env,
            var,
        )
        for i, p in enumerate(web_ports)
    ]
    for i, queues in enumerate(worker_queues(workers, env.get("TASK_QUEUE_PREFIX", ""))):
        result.append(
            Part(
                f"worker-{i + 1}",
                [
                    *celery,
                    *("worker", "-l", "info", "-n", f"worker-{i + 1}@%h"),
                    *("--concurrency", concurrency, "-Q", ",".join(queues)),
                ],
                env,
                var,
            )
        )
    result.append(Part("beat", [*celery, "beat", "-l", "info"], env, var))
    mail = environ.get("MAIL_RECEIVER_PORT", "2525")
    result.append(Part("mail", [python, "manage.py", "receive_mail", "--port", mail], env, var))
    conf = var / "nginx.conf"
    (var / "nginx-temp").mkdir(parents=True, exist_ok=True)
    conf.write_text(nginx_conf(var, port, web_ports), encoding="utf-8")
    nginx = [find_nginx(), "-p", str(var), "-c", str(conf), "-e", "stderr"]
    result.append(Part("proxy", nginx, env, var))
    return result


def wait_for_web(ports: list[int], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    for port in ports:
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the web process on port {port} did not start") from None
                time.sleep(0.2)


def main() -> int:
    stop_on_signals()
    var = Path(os.environ.get("RBANK_VAR_DIR", ROOT / "var")) / "cluster"
    var.mkdir(parents=True, exist_ok=True)
    port = port_of(os.environ)
    if os.environ.get("CLUSTER_SETUP", "1") != "0":  # a test's cluster has its database
        for args in (
            ["migrate", "--no-input", "-v", "0"],
            ["seed_demo"],
            ["make_vapid_keys", "--if-absent"],
        ):
            manage = [sys.executable, "manage.py", *args]
            subprocess.run(manage, cwd=ROOT, env=_env(port), check=True)
    everything = parts(os.environ, var)
    web_ports = [
        int(p.cmd[p.cmd.index("--port") + 1]) for p in everything if p.name.startswith("web-")
    ]
    try:
        for part in everything:
            if part.name == "proxy":
                wait_for_web(web_ports)
            part.start()
        print(
            f"The cluster is running on http://127.0.0.1:{port}/  (Ctrl-C stops everything)",
            flush=True,
        )
        return supervise(everything)
    except KeyboardInterrupt:
        return 0  # Ctrl-C (or a signal) is the normal way to stop
    finally:
        _stop([part.proc for part in everything if part.proc is not None])


def supervise(everything: list[Part]) -> int:
    """Start again each part that stops; 1 when one keeps stopping at start."""
    while True:
        time.sleep(0.5)
        for part in everything:
            assert part.proc is not None
            if part.proc.poll() is None:
                continue
            quick = time.monotonic() - part.started < QUICK_DEATH_SECONDS
            part.quick_deaths = part.quick_deaths + 1 if quick else 0
            if part.quick_deaths >= QUICK_DEATHS:
                print(f"{part.name} keeps stopping at start; stopping the rest", file=sys.stderr)
                return 1
            print(
                f"{part.name} stopped (status {part.proc.returncode}); starting it again",
                flush=True,
            )
            part.start()


if __name__ == "__main__":
    sys.exit(main())
