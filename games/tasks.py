"""Celery tasks: thin wrappers that fetch by id and call a service."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string

from .models import Challenge


@shared_task(acks_late=True, autoretry_for=(OSError,), retry_backoff=True, max_retries=8)  # type: ignore[untyped-decorator]
def send_invitation(challenge_id: int) -> None:
    """E-mail an invitation link to the address a challenge names (if still pending)."""
    challenge = Challenge.objects.select_related("challenger").filter(pk=challenge_id).first()
    if challenge is None or not challenge.email or challenge.status != Challenge.Status.PENDING:
        return
    context = {
        "challenge": challenge,
        "challenger": challenge.challenger.get_username(),
        "link": f"{settings.SITE_URL}/invitations/{challenge.token}/",
        "site_name": settings.SITE_NAME,
    }
    subject = render_to_string("emails/invitation-subject.txt", context).strip()
    message = EmailMultiAlternatives(
        subject,
        render_to_string("emails/invitation-body.txt", context),
        to=[challenge.email],
    )
    message.attach_alternative(
        render_to_string("emails/invitation-body.html", context), "text/html"
    )
    message.send()
