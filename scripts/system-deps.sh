#!/usr/bin/env bash
# What the README's two commands need from the system besides Python packages, checked
# before they start:
#
#   scripts/system-deps.sh python PYTHON   # Python 3.11 or newer, with its venv module
#   scripts/system-deps.sh chromium        # Debian's Chromium, for the browser tests
#   scripts/system-deps.sh gettext         # GNU gettext, to check the translation catalogues
#   scripts/system-deps.sh nginx           # Debian's nginx, the proxy of make cluster and its test
#
# What is missing is installed when it can be (as root, with apt-get); otherwise the
# script prints the one line that says what to run, and fails at once.
set -uo pipefail

what=${1:-}

can_install() {
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1
}

# apt-get install, quietly; when that fails (stale package lists), update and try again.
apt_install() {
    apt-get install -y -q "$@" >/dev/null 2>&1 \
        || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "$@" >/dev/null 2>&1; }
}

# fail NEED PACKAGE: the one line, for a package we could not install ourselves.
# NEED says who needs what, e.g. "make test needs Chromium".
fail() {
    local need=$1 package=$2
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "$need: install it (Debian's package $package), then run make again" >&2
    elif [ "$(id -u)" != 0 ]; then
        echo "$need: run \`sudo apt-get install $package\`, then make again" >&2
    else
        echo "$need, and \`apt-get install $package\` failed: run \`apt-get update && apt-get install $package\` to see why" >&2
    fi
    exit 1
}

# install NEED PACKAGE: install it when we can, else fail with the one line.
install() {
    local need=$1 package=$2
    if can_install; then
        echo "${need}: installing it (apt-get install $package)" >&2
        apt_install "$package" && return 0
    fi
    fail "$need" "$package"
}

case $what in
chromium)
    # The browser tests drive Debian's Chromium (never a browser downloaded by Playwright).
    command -v chromium >/dev/null 2>&1 && exit 0
    need="make test needs Chromium for the browser tests"
    install "$need" chromium
    command -v chromium >/dev/null 2>&1 || fail "$need" chromium
    ;;
gettext)
    # The tests extract the marked strings (xgettext) and compile the catalogues (msgfmt)
    # to check locale/ against the code; make run needs neither (the .mo files are kept).
    command -v xgettext >/dev/null 2>&1 && command -v msgfmt >/dev/null 2>&1 && exit 0
    need="make test needs GNU gettext to check the translations"
    install "$need" gettext
    command -v xgettext >/dev/null 2>&1 || fail "$need" gettext
    ;;
nginx)
    # make cluster puts its web processes behind Debian's nginx, run as a child of its own
    # (config/cluster.py); the cluster's test starts it too. The system's service is left off.
    sbin=${SYSTEM_SBIN:-/usr/sbin}  # where Debian puts it, often off a user's PATH
    found() { command -v nginx >/dev/null 2>&1 || [ -x "$sbin/nginx" ]; }
    found && exit 0
    need="make cluster (and its test) needs nginx, the proxy in front of the web processes"
    install "$need" nginx
    found || fail "$need" nginx
    ;;
python)
    python=${2:-}
    if [ -z "$python" ] || ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        >/dev/null 2>&1; then
        echo "make needs Python 3.11 or newer (found: ${python:-none}): install it, or name it: \`make PYTHON=/path/to/python3.11 ...\`" >&2
        exit 1
    fi
    # Debian ships the venv module (ensurepip) in a package of its own.
    "$python" -c 'import ensurepip, venv' >/dev/null 2>&1 && exit 0
    package=$("$python" -c 'import sys; print(f"python3.{sys.version_info[1]}-venv")')
    need="make needs the venv module of $python"
    install "$need" "$package"
    "$python" -c 'import ensurepip, venv' >/dev/null 2>&1 || fail "$need" "$package"
    ;;
*)
    echo "usage: $0 python PYTHON | chromium | gettext | nginx" >&2
    exit 2
    ;;
esac
