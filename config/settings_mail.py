"""E-mail settings, imported by config/settings.py: the outgoing mail (SMTP, the
development mailbox, the outbox's retries) and play by mail (the SMTP receiver, the
senders' authentication, a provider's inbound webhook)."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

from config.env import DEBUG, SITE_URL, VAR_DIR, env_bool

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
