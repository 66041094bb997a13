"""The site's name as its reader's language says it."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext

#: ``SITE_NAME`` when no operator named the site otherwise.
DEFAULT_SITE_NAME = "Russian Bank"


def site_name() -> str:
    """The site's name in the active language, as the pages' header says it: *Crapette*
    in French, *Zank-Patience* in German; a ``SITE_NAME`` set by the operator is a
    brand, the same in every language. E-mails call it under their recipient's
    language."""
    if settings.SITE_NAME == DEFAULT_SITE_NAME:
        return gettext("Russian Bank")
    return str(settings.SITE_NAME)
