# The two commands of the README. Everything else is a step they use.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Every dependency pinned, with its hashes (make lock): the service's, and the service's
# with the tools for tests and checks (the same versions of what they share).
LOCK     := requirements.lock
DEV_LOCK := requirements-dev.lock
UV_COMPILE = $(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 \
	--generate-hashes --quiet

## make run: the whole service (web, worker, beat) on http://127.0.0.1:8000 with SQLite
## (make run PORT=8123: another port).
run: install
	$(BIN)/python -m config.run

## make cluster: what production runs on several machines, on this one: WEB web
## processes (uvicorn) behind nginx on PORT, WORKERS Celery workers on the queues of each
## kind of task, one beat, the mail receiver (docs/scaling.md). With DATABASE_URL and
## REDIS_URL, on PostgreSQL and Redis. make cluster WEB=4 WORKERS=3 PORT=8000
WEB ?= 2
WORKERS ?= 2
cluster: install proxy
	WEB=$(WEB) WORKERS=$(WORKERS) $(BIN)/python -m config.cluster

# Bytecode is written (in __pycache__, ignored by git) even where the environment says
# not to: the many processes the suite starts (test workers, web servers, commands)
# then compile the project and rewrite the test modules once, not each.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run cluster test lint typecheck pytest selfplay bench install browser gettext proxy messages clean lock

## make test: the whole suite (lint, types, tests), on a bare machine with Python 3.11.
## What the system lacks is checked first: installed when it can be, else named at once.
test: browser proxy lint typecheck pytest

install: $(STAMP)

# The locked versions, then the project itself (its dependencies are those).
$(STAMP): pyproject.toml $(DEV_LOCK)
	@scripts/system-deps.sh python "$(PYTHON)"
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --require-hashes -r $(DEV_LOCK)
	$(BIN)/pip install --quiet --no-deps -e .
	touch $(STAMP)

## make lock: pin the newest versions pyproject.toml allows (after changing it); commit both.
lock: install
	$(UV_COMPILE) -o $(LOCK)
	$(UV_COMPILE) --extra dev --constraint $(LOCK) -o $(DEV_LOCK)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check games accounts mailplay webhooks competitions config lib tests bench examples manage.py

typecheck: install
	$(BIN)/mypy games accounts mailplay webhooks competitions config lib tests bench examples manage.py

# worksteal: a process that runs out of tests takes some of the other's, so a few long
# files (browser, processes) do not leave one core idle at the end.
pytest: install browser gettext proxy
	$(BIN)/pytest -n auto --dist worksteal $(PYTEST_ARGS)

## make selfplay: the long runs the default suite samples (marker long): 10,000 random
## self-play games, and 200 of each preset, all end as the rules say.
selfplay: install
	$(BIN)/pytest -n auto --dist worksteal -m long $(PYTEST_ARGS)

# Debian's Chromium, which the browser tests drive (scripts/system-deps.sh).
browser:
	@scripts/system-deps.sh chromium

# Debian's nginx, the proxy of make cluster and of its test (scripts/system-deps.sh).
proxy:
	@scripts/system-deps.sh nginx

# GNU gettext: the tests check locale/ against the marked strings (scripts/system-deps.sh).
gettext:
	@scripts/system-deps.sh gettext

## make messages: the catalogues brought up to date with the marked strings, compiled.
messages: install gettext
	DEBUG=1 $(BIN)/python manage.py makemessages -l fr -l de
	DEBUG=1 $(BIN)/python manage.py compilemessages -l fr -l de --ignore=.venv

bench: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
