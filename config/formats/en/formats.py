"""English: ``Thu 26 Nov, 20:11``, ``Thursday 26 November 2026, 20:11``, ``26 Nov 2026``."""

SHORT_DATETIME_FORMAT = "D j M, H:i"
DATETIME_FORMAT = "l j F Y, H:i"
DATE_FORMAT = "j M Y"
TIME_FORMAT = "H:i"
