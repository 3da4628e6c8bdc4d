"""Web Push turn alerts (issue 32 §5): the HTTP surface (JSON).

``GET    /api/push/key``            the server's VAPID public key (``applicationServerKey``)
``POST   /api/push/subscriptions``  ``{"game", "token", "subscription": {"endpoint",
                                    "keys": {"p256dh", "auth"}}}``: alert this seat (the
                                    token proves it) on this browser, in the language of
                                    ``Accept-Language`` (201)
``DELETE /api/push/subscriptions``  ``{"game", "token", "endpoint"?}``: stop (this
                                    endpoint, or every one of the seat)

Refusals are 4xx with a text in the asker's language: 400 (an endpoint that is not a
public ``https`` URL: :func:`porphyra.server.push.endpoint_refusal`), 403 (the token opens
no seat of the game: the same answer for a game that does not exist), 422 (a malformed
body).  What is sent and when: :mod:`porphyra.server.push`.
"""

from __future__ import annotations

import asyncio
import base64
import binascii

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, field_validator

from porphyra.core.messages import msg
from porphyra.i18n import from_accept_language
from porphyra.server.deps import READS, existing, hub_of
from porphyra.server.errors import RefusedRequest
from porphyra.server.push import PushAlerts, endpoint_refusal

router = APIRouter(tags=["push"])

#: The longest endpoint URL kept (browsers' are a few hundred characters).
MAX_ENDPOINT = 1000


def _key(text: str, size: int) -> str:
    """``text`` if it is base64url of ``size`` bytes (padding optional)."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not base64url") from None
    if len(raw) != size:
        raise ValueError(f"not {size} bytes")
    return text


class KeysIn(BaseModel):
    """A subscription's keys: the browser's P-256 public key (65 bytes) and its auth
    secret (16 bytes), base64url."""

    model_config = ConfigDict(extra="ignore")
    p256dh: str = Field(max_length=100)
    auth: str = Field(max_length=40)

    @field_validator("p256dh")
    @classmethod
    def _point(cls, value: str) -> str:
        return _key(value, 65)

    @field_validator("auth")
    @classmethod
    def _secret(cls, value: str) -> str:
        return _key(value, 16)


class SubscriptionIn(BaseModel):
    """A browser's push subscription (``PushSubscription.toJSON()``)."""

    model_config = ConfigDict(extra="ignore")
    endpoint: str = Field(min_length=1, max_length=MAX_ENDPOINT)
    keys: KeysIn


class SubscribeIn(BaseModel):
    """Alert the seat that ``token`` opens at ``game`` on ``subscription``."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1, max_length=32)
    token: str = Field(min_length=1, max_length=200)
    subscription: SubscriptionIn


class UnsubscribeIn(BaseModel):
    """Stop the alerts of the seat that ``token`` opens at ``game`` on ``endpoint``
    (None: on every browser)."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1, max_length=32)
    token: str = Field(min_length=1, max_length=200)
    endpoint: str | None = Field(default=None, max_length=MAX_ENDPOINT)


class SubscribedOut(BaseModel):
    """The seat alerted (0-based) at ``game``; ``removed``: subscriptions stopped."""

    game: str
    seat: int
    removed: int = 0


class KeyOut(BaseModel):
    """The VAPID public key (base64url of the uncompressed P-256 point)."""

    public_key: str


def _alerts(request: Request) -> PushAlerts:
    alerts: PushAlerts = request.app.state.push
    return alerts


async def _seat(request: Request, game_id: str, token: str) -> int:
    """The seat ``token`` opens at ``game_id``.

    Raises:
        RefusedRequest(403): none (or no such game: the same answer).
    """
    hub = hub_of(request.app)
    refused = RefusedRequest(403, msg("wrong seat token: this link does not open a seat"))
    if not await hub.may_hold(game_id, token):
        raise refused
    runner = await existing(hub, game_id)
    seat = runner.seat_of_token(token)
    if seat is None:
        raise refused
    return seat


@router.get("/api/push/key")
async def push_key(request: Request) -> KeyOut:
    """The server's VAPID public key, for ``pushManager.subscribe``."""
    return KeyOut(public_key=await asyncio.to_thread(_alerts(request).public_key))


@router.post(
    "/api/push/subscriptions",
    status_code=201,
    dependencies=READS,
    responses={400: {}, 403: {}},
)
async def subscribe(body: SubscribeIn, request: Request) -> SubscribedOut:
    """Alert the seat that ``body.token`` opens when it is its turn at this turn-based
    table and no page of it is connected (at most once an hour unless answered)."""
    seat = await _seat(request, body.game, body.token)
    alerts = _alerts(request)
    endpoint = body.subscription.endpoint
    refusal = await asyncio.to_thread(endpoint_refusal, endpoint, alerts.allow_private)
    if refusal is not None:
        raise RefusedRequest(400, msg("this push endpoint cannot be used: {0}", refusal))
    lang = from_accept_language(request.headers.get("accept-language"))
    keys = body.subscription.keys
    await hub_of(request.app).db(
        alerts.subscribe, body.game, seat, endpoint, keys.p256dh, keys.auth, lang
    )
    return SubscribedOut(game=body.game, seat=seat)


@router.delete("/api/push/subscriptions", dependencies=READS, responses={403: {}})
async def unsubscribe(body: UnsubscribeIn, request: Request) -> SubscribedOut:
    """Stop the seat's alerts on ``body.endpoint`` (or on every browser)."""
    seat = await _seat(request, body.game, body.token)
    removed = await hub_of(request.app).db(
        _alerts(request).unsubscribe, body.game, seat, body.endpoint
    )
    return SubscribedOut(game=body.game, seat=seat, removed=removed)
