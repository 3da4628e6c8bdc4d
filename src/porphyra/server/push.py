"""Web Push turn alerts (issue 32 §5): a seat of a turn-based table that allowed it is
told "Your turn in …" when the game waits for it and no page of it is connected.

- **Keys.** One VAPID key pair per database (``server_state`` row ``vapid_key``: the
  private key as PEM), made by the first server that needs it (a second server racing
  it reads the first one's); every server of a cluster signs with it.  Its public half
  is what a page passes to ``pushManager.subscribe`` (:meth:`PushAlerts.public_key`).
- **Subscriptions** (``push_subscriptions`` rows) belong to one seat of one game, proven
  by the seat's token when subscribing (:mod:`porphyra.server.routes.push`), with the
  page's language; at most :data:`MAX_PER_SEAT` per seat (the oldest go).
- **What is sent**: ``{"title", "body", "url"}`` encrypted for the subscription
  (aes128gcm): the body is "Your turn in <game name>" translated, the url the table's
  page (``/game/<id>?from=alert``; no token: the page takes the seat link this browser
  keeps).  Nothing about any seat's cards.
- **Limits**: one alert per seat of a table per :data:`ALERT_EVERY_S` (an hour) unless
  answered (the seat moved, or a page of it connected: :meth:`PushAlerts.answered`).
  A push service's 404 or 410 deletes the subscription.
- **Endpoints** must be ``https`` URLs whose host resolves to public addresses only
  (:func:`endpoint_refusal`), checked when subscribing and again before each send (DNS
  may change); ``allow_private`` (the ``push_private_endpoints`` setting, for tests)
  lifts both rules.  A push service's redirect is never followed.
"""

from __future__ import annotations

import asyncio
import base64
import ipaddress
import json
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

import requests
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush
from sqlalchemy import Engine, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from porphyra import i18n
from porphyra.core.messages import Message, msg
from porphyra.server.incidents import report
from porphyra.server.schema import push_table, server_table

#: Seconds between two alerts to one seat of a table (unless answered in between).
ALERT_EVERY_S = 3600.0
#: Subscriptions kept per seat (browsers and devices of its player).
MAX_PER_SEAT = 5
#: Seconds a push service may take to answer.
SEND_TIMEOUT_S = 10.0
#: Seconds a push service keeps an alert for a device that is offline.
ALERT_TTL_S = 3600
#: The ``server_state`` key of the VAPID private key (PEM).
KEY_ROW = "vapid_key"
#: What became of one alert (:meth:`PushAlerts.deliver`).
SENT, FAILED, GONE = "sent", "failed", "gone"


def endpoint_refusal(endpoint: str, allow_private: bool = False) -> Message | None:
    """Why a push ``endpoint`` may not be used (None: it may): not an ``https`` URL, or
    a host that is or resolves to a private, loopback, link-local or otherwise
    non-public address (a subscription must not make the server call its own network).
    ``allow_private`` (tests) accepts ``http`` and any address."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return msg("not a URL")
    if parts.scheme not in ("https", "http") or not parts.hostname:
        return msg("not an https URL")
    if allow_private:
        return None
    if parts.scheme != "https":
        return msg("not an https URL")
    if parts.username is not None or any(ord(c) < 0x21 or c == "\x7f" for c in endpoint):
        return msg("not an https URL")  # credentials or control characters: no push service's
    try:
        infos = socket.getaddrinfo(parts.hostname, port or 443, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return msg("its host does not resolve")
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%")[0])
        if not _public(address):
            return msg("its host is not a public address")
    return None


#: IPv6 ranges that carry or reach an IPv4 address (IPv4-compatible, NAT64, 6to4) or are
#: site-local: Python's ``is_global`` passes some of them, and they may route inside.
_NOT_PUBLIC_V6 = tuple(
    ipaddress.ip_network(n) for n in ("::/96", "64:ff9b::/96", "2002::/16", "fec0::/10")
)


def _public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """True if ``address`` is a public one the server may send a push to."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return _public(address.ipv4_mapped)
        if any(address in net for net in _NOT_PUBLIC_V6):
            return False
    return address.is_global


class PushAlerts:
    """Turn alerts of one server (a :class:`porphyra.server.ports.TurnAlerts`).

    Args:
        engine: the server's database.
        contact: the VAPID ``sub`` claim (``mailto:`` or ``https:``), sent to push
            services so they can reach the operator.
        allow_private: accept ``http`` endpoints and private or loopback addresses
            (tests only).
        clock: epoch seconds (tests pass a fake one).
        db: runs a blocking database call off the event loop (the hub's runner,
            :meth:`porphyra.server.hubstore.HubStore.db`, so that SQLite sees one writer;
            default: a thread).
    """

    def __init__(
        self,
        engine: Engine,
        contact: str,
        allow_private: bool = False,
        clock: Callable[[], float] = time.time,
        db: Callable[..., Awaitable[Any]] | None = None,
    ) -> None:
        self.engine = engine
        self.db: Callable[..., Awaitable[Any]] = db or asyncio.to_thread
        self.contact = contact
        self.allow_private = allow_private
        self.clock = clock
        self._vapid: Vapid02 | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    # ----------------------------------------------------------------- keys
    def vapid(self) -> Vapid02:
        """The database's VAPID key pair (made and stored on first use)."""
        if self._vapid is None:
            with self.engine.connect() as conn:
                pem = conn.execute(
                    select(server_table.c.value).where(server_table.c.key == KEY_ROW)
                ).scalar()
            if pem is None:
                fresh = Vapid02()
                fresh.generate_keys()
                try:
                    with self.engine.begin() as conn:
                        conn.execute(
                            insert(server_table).values(
                                key=KEY_ROW, value=fresh.private_pem().decode("ascii")
                            )
                        )
                except IntegrityError:  # another server stored its key first: use that
                    return self.vapid()
                self._vapid = fresh
            else:
                self._vapid = Vapid02.from_pem(str(pem).encode("ascii"))
        return self._vapid

    def public_key(self) -> str:
        """The VAPID public key as a page's ``applicationServerKey``: the uncompressed
        P-256 point, base64url without padding."""
        from cryptography.hazmat.primitives import serialization

        raw = self.vapid().public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")

    # ------------------------------------------------------- subscriptions
    def subscribe(
        self, game_id: str, seat: int, endpoint: str, p256dh: str, auth: str, lang: str
    ) -> None:
        """Keep the subscription (``endpoint`` and its keys) of ``seat`` of ``game_id``,
        alerts in ``lang``; the same endpoint again replaces it; beyond
        :data:`MAX_PER_SEAT` the oldest go."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(push_table).where(
                    push_table.c.game_id == game_id,
                    push_table.c.seat == seat,
                    push_table.c.endpoint == endpoint,
                )
            )
            conn.execute(
                insert(push_table).values(
                    game_id=game_id,
                    seat=seat,
                    endpoint=endpoint,
                    p256dh=p256dh,
                    auth=auth,
                    lang=lang,
                    created=self.clock(),
                )
            )
            ids = conn.execute(
                select(push_table.c.id)
                .where(push_table.c.game_id == game_id, push_table.c.seat == seat)
                .order_by(push_table.c.id.desc())
            ).all()
            stale = [r.id for r in ids[MAX_PER_SEAT:]]
            if stale:
                conn.execute(delete(push_table).where(push_table.c.id.in_(stale)))

    def unsubscribe(self, game_id: str, seat: int, endpoint: str | None) -> int:
        """Forget ``endpoint``'s subscription of ``seat`` (None: every subscription of
        the seat); how many were removed."""
        where = [push_table.c.game_id == game_id, push_table.c.seat == seat]
        if endpoint is not None:
            where.append(push_table.c.endpoint == endpoint)
        with self.engine.begin() as conn:
            return int(conn.execute(delete(push_table).where(*where)).rowcount)

    def subscriptions(self, game_id: str, seat: int) -> list[Any]:
        """The subscription rows of ``seat`` of ``game_id``."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(push_table).where(
                        push_table.c.game_id == game_id, push_table.c.seat == seat
                    )
                ).all()
            )

    def answered(self, game_id: str, seat: int) -> None:
        """``seat`` of ``game_id`` answered (moved, or opened its page): its next turn
        may be alerted at once."""
        with self.engine.begin() as conn:
            conn.execute(
                update(push_table)
                .where(push_table.c.game_id == game_id, push_table.c.seat == seat)
                .values(last_alert=None)
            )

    # --------------------------------------------------------------- alerts
    def turn(self, game_id: str, game_name: str, seats: list[int], moved: int | None) -> None:
        """The game changed: ``moved`` answered (None: no seat moved), and each seat of
        ``seats`` must act with no page of it connected: alert them (in the
        background; never raises)."""
        if moved is not None or seats:
            self._background(self._turn(game_id, game_name, seats, moved))

    def opened(self, game_id: str, seat: int) -> None:
        """A page of ``seat`` of ``game_id`` connected: it answered (in the background)."""
        self._background(self._turn(game_id, "", [], seat))

    def _background(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _turn(
        self, game_id: str, game_name: str, seats: list[int], moved: int | None
    ) -> None:
        try:
            if moved is not None:
                await self.db(self.answered, game_id, moved)
            for seat in seats:
                for sub in await self.db(self.take_due, game_id, seat):
                    result = await asyncio.to_thread(self.deliver, sub, game_id, game_name)
                    if result == GONE:
                        await self.db(self.forget, sub.id)
        except Exception:
            report("game %s: a turn alert failed", game_id)

    async def idle(self) -> None:
        """Wait for the alerts being sent (tests, and a server stopping)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def alert(self, game_id: str, game_name: str, seat: int) -> int:
        """Send ``seat`` of ``game_id`` its turn alert on each of its subscriptions not
        alerted within :data:`ALERT_EVERY_S` (blocking: the database and the network).

        Returns:
            How many alerts the push services accepted.
        """
        sent = 0
        for sub in self.take_due(game_id, seat):
            result = self.deliver(sub, game_id, game_name)
            if result == GONE:
                self.forget(sub.id)
            sent += 1 if result == SENT else 0
        return sent

    def take_due(self, game_id: str, seat: int) -> list[Any]:
        """The subscriptions of ``seat`` of ``game_id`` due an alert now, marked as
        alerted (before sending: two changes at once never alert twice)."""
        now = self.clock()
        with self.engine.begin() as conn:
            due = list(
                conn.execute(
                    select(push_table).where(
                        push_table.c.game_id == game_id,
                        push_table.c.seat == seat,
                        or_(
                            push_table.c.last_alert.is_(None),
                            push_table.c.last_alert <= now - ALERT_EVERY_S,
                        ),
                    )
                ).all()
            )
            if due:
                conn.execute(
                    update(push_table)
                    .where(push_table.c.id.in_([s.id for s in due]))
                    .values(last_alert=now)
                )
        return due

    def deliver(self, sub: Any, game_id: str, game_name: str) -> str:
        """POST the alert to subscription ``sub`` (a row; the network only).

        Returns:
            :data:`SENT`, :data:`FAILED` (try again at a later turn) or :data:`GONE` (the
            push service answered 404 or 410, or the endpoint now resolves to a
            non-public address: forget the subscription).
        """
        if endpoint_refusal(sub.endpoint, self.allow_private) is not None:
            return GONE
        name = i18n.gettext(sub.lang, game_name)
        payload = {
            "title": "porphyra",
            "body": i18n.gettext(sub.lang, "Your turn in {0}").format(name),
            "url": f"/game/{game_id}?from=alert",
        }
        audience = "{0.scheme}://{0.netloc}".format(urlsplit(sub.endpoint))
        session = requests.Session()
        session.max_redirects = 0  # (a redirect would lead past the address check)
        try:
            webpush(
                {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
                json.dumps(payload),
                vapid_private_key=self.vapid(),
                vapid_claims={"sub": self.contact, "aud": audience},
                timeout=SEND_TIMEOUT_S,
                ttl=ALERT_TTL_S,
                requests_session=session,
            )
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            return GONE if status in (404, 410) else FAILED  # (gone: the browser unsubscribed)
        except Exception:  # unreachable, or a redirect: the next turn tries again
            return FAILED
        finally:
            session.close()
        return SENT

    def forget(self, sub_id: int) -> None:
        """Delete subscription ``sub_id``."""
        with self.engine.begin() as conn:
            conn.execute(delete(push_table).where(push_table.c.id == sub_id))
