"""``manage.py makemessages`` with the project's defaults (``make messages`` runs it):
only the service's own code and templates are read, and each entry keeps its file
(not its line: a catalogue should not change when code moves)."""

from __future__ import annotations

from typing import Any

from django.core.management.commands import makemessages

#: Folders with no string a player reads (or none of ours).
IGNORED = ["var", "tests", "bench", "examples", "docs", "artifacts", "scripts", "docker"]


class Command(makemessages.Command):
    def handle(self, *args: Any, **options: Any) -> str | None:
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), *IGNORED]
        options["add_location"] = options.get("add_location") or "file"
        options["no_obsolete"] = True
        return super().handle(*args, **options)
