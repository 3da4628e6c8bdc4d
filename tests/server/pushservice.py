"""A push service on loopback for the turn-alert tests (issue 32 §5): it receives the
POST of an alert as a browser's push service would, checks its VAPID signature against
the server's public key, and decrypts its aes128gcm body with the subscription's own
private key, as the browser would."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    """One POST received: its path, headers and raw body."""

    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    """An HTTP server on 127.0.0.1 answering every POST with ``status`` (201: accepted;
    410: the subscription is gone; a 3xx redirects to ``location``) and keeping what it
    received."""

    status: int = 201
    received: list[Received] = field(default_factory=list)
    #: With a 3xx ``status``: where the answer redirects to.
    location: str | None = None

    def start(self) -> PushService:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = self.rfile.read(length)
                service.received.append(
                    Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                self.send_response(service.status)
                if service.location is not None:
                    self.send_header("location", service.location)
                self.end_headers()

            def log_message(self, *args: Any) -> None:  # (quiet)
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def wait(self, count: int, timeout: float = 15.0) -> list[Received]:
        deadline = time.monotonic() + timeout
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.received


class Browser:
    """A browser's side of one subscription: its P-256 key pair and auth secret."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscription(self, endpoint: str) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": endpoint, "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        """The alert's JSON, decrypted as the browser would (aes128gcm)."""
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        payload: dict[str, Any] = json.loads(plain)
        return payload


def vapid_claims(headers: dict[str, str], public_key: str) -> dict[str, Any]:
    """The claims of a request's ``Authorization: vapid t=<JWT>, k=<key>`` after checking
    that ``k`` is ``public_key`` and that the JWT's ES256 signature verifies with it.

    Raises:
        AssertionError: a missing or wrong header, or a signature that does not verify.
    """
    auth = headers.get("authorization", "")
    assert auth.startswith("vapid "), auth
    parts = dict(p.strip().split("=", 1) for p in auth[len("vapid ") :].split(","))
    assert parts["k"].rstrip("=") == public_key
    head, claims, signature = parts["t"].split(".")
    point = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    raw = unb64url(signature)
    assert len(raw) == 64
    der = utils.encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
    try:
        point.verify(der, f"{head}.{claims}".encode("ascii"), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID signature does not verify") from None
    assert json.loads(unb64url(head))["alg"] == "ES256"
    decoded: dict[str, Any] = json.loads(unb64url(claims))
    return decoded
