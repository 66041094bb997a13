"""What an account tells the apps built on it, which ``accounts`` never imports.

All are sent inside the account service's transaction, so what a receiver writes
commits or rolls back with it. The games app receives them (``games/apps.py``).
"""

from __future__ import annotations

from django.dispatch import Signal

#: A player starts a vacation: ``user``, ``days``, ``until`` and ``now``. The games
#: app moves the clocks of their games and tells their opponents.
vacation_started = Signal()

#: A player is about to be deleted: ``user``. A receiver ends what the player takes
#: part in and answers how many games it ended.
account_deleting = Signal()

#: ``blocker`` has just blocked ``blocked`` (``accounts.conduct.block``). The games app
#: withdraws the blocker's pending challenges to the blocked player, as the blocker
#: could have done by hand: nothing else tells the blocked player (docs/conduct.md).
player_blocked = Signal()
