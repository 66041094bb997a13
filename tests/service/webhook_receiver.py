"""A real HTTP server on 127.0.0.1, in a thread of the test process, that takes webhook
deliveries as a player's program would: it keeps every request, checks its signature
with the documented check (``webhooks.signing.verify``), and can fail for a while (an
error status, or no answer in time)."""

from __future__ import annotations

import json
import shutil
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from webhooks.signing import SignatureError, verify


@dataclass(frozen=True)
class Request:
    path: str
    headers: dict[str, str]
    body: bytes
    #: What the documented check said when the request arrived: "" when it passed.
    signature_error: str

    @property
    def event(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(self.body)
        return value


@dataclass
class Receiver:
    port: int
    #: The secret the check uses (set once the webhook is made).
    secret: str = ""
    requests: list[Request] = field(default_factory=list)
    #: Answer this many requests with ``fail_status`` (or, if ``hang``, not in time).
    fail_next: int = 0
    fail_status: int = 500
    hang: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hooks/rbank?source=tests"

    def taken(self) -> list[Request]:
        """The requests answered 2xx, in the order they arrived."""
        with self.lock:
            return [r for r in self.requests if r.headers.get("X-Answered") == "2xx"]

    def events(self) -> list[dict[str, Any]]:
        return [r.event for r in self.taken()]


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            try:
                verify(receiver.secret, self.headers.get("Rbank-Signature", ""), body)
                error = ""
            except SignatureError as exc:
                error = str(exc)
            with receiver.lock:
                failing = receiver.fail_next > 0
                if failing:
                    receiver.fail_next -= 1
                headers = dict(self.headers.items())
                headers["X-Answered"] = "failed" if failing else "2xx"
                receiver.requests.append(Request(self.path, headers, body, error))
            if failing and receiver.hang:
                time.sleep(receiver.hang)
            status = receiver.fail_status if failing else 200
            answer = b"not now" if failing else b'{"ok": true}'
            try:
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)
            except OSError:
                pass  # the client gave up waiting

        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet

    return Handler


@contextmanager
def serving(tls: ssl.SSLContext | None = None) -> Iterator[Receiver]:
    """A receiver on 127.0.0.1 (over TLS with ``tls``) until the block ends."""
    receiver = Receiver(0)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(receiver))
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    receiver.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def hook_receiver() -> Iterator[Receiver]:
    with serving() as receiver:
        yield receiver


def make_certificates(folder: Path, host: str) -> tuple[Path, Path, Path]:
    """A certificate authority of the test's own, and a certificate it signed for
    ``host``: (the authority's certificate, the host's certificate, its key). Made
    with the openssl command (the test is skipped without it)."""
    if shutil.which("openssl") is None:
        pytest.skip("no openssl command to make certificates with")

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    authority = ["-subj", "/CN=Webhook tests CA", "-days", "2"]
    authority += ["-keyout", "ca.key", "-out", "ca.pem"]
    openssl(
        "req",
        "-x509",
        *ec,
        *authority,
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign,cRLSign",
    )
    openssl("req", *ec, "-keyout", "host.key", "-out", "host.csr", "-subj", f"/CN={host}")
    (folder / "host.ext").write_text(
        f"subjectAltName=DNS:{host}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
    )
    signing = "-in host.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile host.ext"
    openssl("x509", "-req", *signing.split(), "-out", "host.pem")
    return folder / "ca.pem", folder / "host.pem", folder / "host.key"
