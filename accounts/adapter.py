"""django-allauth's hooks for this site."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.http import HttpRequest

from . import invitations


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]  # allauth is untyped
    def is_email_verified(self, request: HttpRequest, email: str) -> bool:
        """An address is verified at sign-up when an invitation sent to it was followed
        in this browser (a different address is confirmed by e-mail, as usual)."""
        return invitations.proves(request, email) or super().is_email_verified(request, email)
