"""German: ``Do., 26. Nov., 20:11``, ``Donnerstag, 26. November 2026, 20:11``,
``26. November 2026``."""

SHORT_DATETIME_FORMAT = "D., j. N, H:i"
DATETIME_FORMAT = "l, j. F Y, H:i"
DATE_FORMAT = "j. F Y"
TIME_FORMAT = "H:i"
