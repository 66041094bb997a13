"""A push service on 127.0.0.1, as a browser's would be: it takes the server's
encrypted POST, checks its VAPID token (RFC 8292: the ES256 signature by the key
it names, which must be the server's; ``aud`` its own origin, ``exp`` within a day,
``sub`` the server's contact) and decrypts the payload with the keys of the
subscription the test made (RFC 8291, aes128gcm, ``http_ece``), as the browser
would. It answers 201, or what a test scripted for a device (410, 503...)."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from games.push import keys


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def point(key: ec.EllipticCurvePublicKey) -> bytes:
    return key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


@dataclass
class Device:
    """A browser's subscription: its endpoint on the service and its own keys."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64(point(self.private_key.public_key()))

    def subscription(self) -> dict[str, Any]:
        """As the Push API's ``PushSubscription.toJSON()``."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": b64(self.auth)}}


@dataclass(frozen=True)
class Push:
    """A push the service took: the decrypted notification and what came with it."""

    path: str
    payload: dict[str, Any]
    claims: dict[str, Any]
    headers: dict[str, str]  # by their names in lower case


class VapidRefused(Exception):
    pass


def check_vapid(authorization: str, audience: str) -> dict[str, Any]:
    """The VAPID token's claims, once its signature, key and claims hold."""
    scheme, _space, rest = authorization.partition(" ")
    if scheme != "vapid":
        raise VapidRefused(f"scheme {scheme!r} in {authorization!r}")
    parts = dict(item.strip().split("=", 1) for item in rest.split(","))
    if parts.get("k") != keys.public_key():
        raise VapidRefused("the key is not the server's")
    header, claims, signature = parts["t"].split(".")
    if json.loads(unb64(header)) != {"typ": "JWT", "alg": "ES256"}:
        raise VapidRefused(f"header {unb64(header)!r}")
    raw = unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(parts["k"]))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises
    values: dict[str, Any] = json.loads(unb64(claims))
    if values.get("aud") != audience:
        raise VapidRefused(f"aud {values.get('aud')!r}")
    if not time.time() < values["exp"] <= time.time() + 24 * 3600:
        raise VapidRefused(f"exp {values['exp']}")
    if not str(values.get("sub", "")).startswith(("mailto:", "https:")):
        raise VapidRefused(f"sub {values.get('sub')!r}")
    return values


class PushService:
    def __init__(self) -> None:
        self.devices: dict[str, Device] = {}
        self.pushes: list[Push] = []
        self.refused: list[str] = []  # what failed the checks: a test wants none
        #: Scripted answers per path, used up in order, then 201.
        self.answers: dict[str, list[int]] = {}
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def device(self) -> Device:
        path = f"/push/{len(self.devices) + 1}"
        made = Device(self.origin + path)
        self.devices[path] = made
        return made

    def to(self, device: Device) -> list[dict[str, Any]]:
        """The notifications ``device`` got, oldest first."""
        path = device.endpoint.removeprefix(self.origin)
        return [push.payload for push in self.pushes if push.path == path]

    def _take(self, path: str, body: bytes, headers: dict[str, str]) -> int:
        with self.lock:
            scripted = self.answers.get(path)
            if scripted:
                return scripted.pop(0)
        device = self.devices.get(path)
        if device is None:
            return 404
        try:
            claims = check_vapid(headers.get("authorization", ""), self.origin)
            if headers.get("content-encoding") != "aes128gcm" or "ttl" not in headers:
                raise VapidRefused(f"headers {headers}")
            plain = http_ece.decrypt(
                body, private_key=device.private_key, auth_secret=device.auth, version="aes128gcm"
            )
            payload = json.loads(plain)
        except Exception as error:  # recorded: the test fails on it
            with self.lock:
                self.refused.append(f"{path}: {error!r}")
            return 400
        with self.lock:
            self.pushes.append(Push(path, payload, claims, headers))
        return 201

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                status = service._take(
                    self.path, body, {k.lower(): v for k, v in self.headers.items()}
                )
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


@pytest.fixture
def push_service(settings: Any) -> Iterator[PushService]:
    """The push service running, and the server given a VAPID key of its own."""
    settings.VAPID_PRIVATE_KEY = keys.new_private_pem()
    settings.VAPID_SUBJECT = "mailto:games@example.com"
    service = PushService()
    service.thread.start()
    try:
        yield service
    finally:
        service.server.shutdown()
        service.server.server_close()
