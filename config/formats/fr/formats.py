"""French: ``jeu. 26 nov., 20:11``, ``jeudi 26 novembre 2026 à 20:11``, ``26 novembre 2026``."""

SHORT_DATETIME_FORMAT = "D. j N, H:i"
DATETIME_FORMAT = "l j F Y à H:i"
DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
