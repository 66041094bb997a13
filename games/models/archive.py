"""The open game database's months: one published file per month (``games.archive``)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class DatabaseMonth(models.Model):
    """A month of the open database, written once when the month is closed and never
    again: its file (under ``settings.OPEN_DATABASE_DIR``), its size, how many games it
    holds and its SHA-256, which anyone may check against a rebuild."""

    #: The month's first day (UTC).
    month = models.DateField(_("month"), unique=True)
    #: The file's name in ``OPEN_DATABASE_DIR``: ``rbank-2026-10.txt.gz``.
    file_name = models.CharField(_("file name"), max_length=64)
    size = models.PositiveBigIntegerField(_("size"))
    count = models.PositiveIntegerField(_("count"))
    sha256 = models.CharField(_("SHA-256"), max_length=64)
    written_at = models.DateTimeField(_("written at"), auto_now_add=True)

    class Meta:
        verbose_name = _("database month")
        verbose_name_plural = _("database months")
        ordering = ["-month"]

    def __str__(self) -> str:
        return f"{self.month:%Y-%m}: {self.count} games"

    @property
    def label(self) -> str:
        """``2026-10``, as the file and its address name the month."""
        return f"{self.month:%Y-%m}"
