"""Rows that several processes of a deployment share: an open event stream, counted per
player across every web process, and the named lock one process at a time holds (beat's).

Each row is a lease: its holder renews it while alive; a process that dies (killed, its
machine lost) stops renewing, and once its lease has run out the row no longer counts."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class StreamLease(models.Model):
    """One open event stream, held by the hub (one per web process) named ``hub``, which
    renews every lease it holds each ``settings.STREAM_LEASE_SECONDS`` / 3. A player
    holds at most ``settings.STREAM_MAX_PER_USER`` live ones, whichever process holds
    them (``games.feed.stream_leases``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="stream_leases",
        verbose_name=_("user"),
    )
    hub = models.CharField(_("hub"), max_length=32, db_index=True)
    renewed_at = models.DateTimeField(_("renewed at"), default=timezone.now)

    class Meta:
        verbose_name = _("stream lease")
        verbose_name_plural = _("stream leases")
        indexes = [models.Index(fields=["user", "renewed_at"])]

    def __str__(self) -> str:
        return f"stream of {self.user_id} on {self.hub}"


class Lock(models.Model):
    """A named lock: ``holder`` has it until ``expires_at``, and renews it before then
    (``config.beat``: one beat at a time sends the schedule's tasks)."""

    name = models.CharField(_("name"), max_length=64, primary_key=True)
    holder = models.CharField(_("holder"), max_length=128)
    expires_at = models.DateTimeField(_("expires at"))

    class Meta:
        verbose_name = _("lock")
        verbose_name_plural = _("locks")

    def __str__(self) -> str:
        return f"{self.name} held by {self.holder} until {self.expires_at:%H:%M:%S}"

    @classmethod
    def take(cls, name: str, holder: str, seconds: float) -> bool:
        """Take or renew lock ``name`` for ``holder`` for ``seconds``: False while another
        holder's lock has not run out."""
        now = timezone.now()
        expires = now + timedelta(seconds=seconds)
        with transaction.atomic():
            row = cls.objects.select_for_update().filter(name=name).first()
            if row is None:
                try:
                    with transaction.atomic():
                        cls.objects.create(name=name, holder=holder, expires_at=expires)
                except IntegrityError:  # another took it first
                    return False
                return True
            if row.holder != holder and row.expires_at > now:
                return False
            row.holder, row.expires_at = holder, expires
            row.save(update_fields=["holder", "expires_at"])
            return True

    @classmethod
    def release(cls, name: str, holder: str) -> None:
        """Give the lock up at once (a clean stop), if ``holder`` has it."""
        cls.objects.filter(name=name, holder=holder).delete()
