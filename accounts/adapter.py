"""django-allauth's hooks for this site.

* Its e-mails in the site's name: without the Sites framework allauth names the site
  after the request's host, so the sign-up e-mail said "Hello from 127.0.0.1:8000!".
  Its e-mails are told the site's name (``lib.naming.site_name``: in the
  language they are written in, as the pages' header) and address (``SITE_URL``),
  and their subjects start with that name.
* A followed e-mail invitation proves the invited address at sign-up
  (``accounts/invitations.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.http import HttpRequest
from django.utils.encoding import force_str

from lib.naming import site_name

from . import invitations


@dataclass(frozen=True)
class SiteName:
    """What allauth's templates read of a site (``current_site.name``, ``.domain``)."""

    name: str
    domain: str


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]
    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        site = SiteName(site_name(), urlsplit(settings.SITE_URL).netloc)
        super().send_mail(
            template_prefix,
            email,
            {**context, "current_site": site, "site_url": settings.SITE_URL},
        )

    def format_email_subject(self, subject: str) -> str:
        return f"[{site_name()}] {force_str(subject)}"

    def is_email_verified(self, request: HttpRequest, email: str) -> bool:
        """An address is verified at sign-up when an invitation sent to it was followed
        in this browser (a different address is confirmed by e-mail, as usual)."""
        return invitations.proves(request, email) or super().is_email_verified(request, email)
