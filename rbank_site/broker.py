"""The broker of the embedded default: kombu's filesystem transport, with its messages
written whole before a worker can see them.

kombu's own ``_put`` creates the message file, then writes it; a worker that lists
the folder in between moves the empty file away and dies on the JSON it cannot read
(seen as ``Unrecoverable error: JSONDecodeError`` once workers poll a few times a
second), or, when the move crosses file systems, loses the message. Here each message
is written to a hidden temporary file in the same folder, then renamed to its name:
a rename within a folder is atomic, so a worker sees a whole message or none. The
folder, the names and the reading are kombu's.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

#: The URL scheme the settings use for it: ``files://``.
SCHEME = "files"


class Channel(filesystem.Channel):
    def _put(self, queue: Any, payload: Any, **kwargs: Any) -> None:  # type: ignore[override]
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"  # kombu's order
        final = os.path.join(self.data_folder_out, name)
        # Hidden, and without the ".<queue>.msg" ending a worker looks for.
        partial = os.path.join(self.data_folder_out, f".{uuid.uuid4()}.partial")
        try:
            with open(partial, "wb") as out:
                out.write(str_to_bytes(dumps(payload)))  # type: ignore[no-untyped-call]
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel


TRANSPORT_ALIASES.setdefault(SCHEME, f"{__name__}:Transport")
