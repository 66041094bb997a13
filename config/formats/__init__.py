"""How each language writes a date and a time: Django's localized formats
(``FORMAT_MODULE_PATH``), read by ``django.utils.formats.date_format``, the ``date``
filter and ``games.templatetags.times``. One module per language; a new language
adds its own (docs/languages.md).

- ``SHORT_DATETIME_FORMAT``: a time on the pages (a deadline, a message), with the
  weekday: ``Thu 26 Nov, 20:11``.
- ``DATETIME_FORMAT``: a time written out, in e-mails (a deadline) and for a
  vacation's end: ``Thursday 26 November 2026, 20:11``.
- ``DATE_FORMAT``: a day (a finished game, a token made): ``26 Nov 2026``.
- ``TIME_FORMAT``: a time of day: ``20:11``.

The zone's name is added after each time by the code that writes it.
"""
