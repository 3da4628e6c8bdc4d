"""The play socket: ``/ws/{id}?token=T&lang=L&choices=1``, one websocket per seat (T is
its invite token) or, without a token, per spectator; the messages are in
:mod:`porphyra.server.protocol` (``choices=1``: the client composes a decision's legal
texts from its option table, which its views then carry instead of the texts).

The endpoint checks the Origin, the read and connection limits and the token, attaches a
:class:`~porphyra.server.client.Client` to the game's runner, and hands each message to
:func:`_handle`, which asks the runner (:mod:`porphyra.server.match`) and answers every
refusal with an ``error`` to that client only.  A writer task sends the client's outbox
in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Response, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from porphyra.i18n import DEFAULT as DEFAULT_LANGUAGE
from porphyra.i18n import normalize as normalize_language
from porphyra.i18n.log import translate_error
from porphyra.server import protocol
from porphyra.server.client import MOVED_CLOSE_CODE, Client
from porphyra.server.deps import (
    ROUTER_HEADER,
    damaged_detail,
    game_header,
    hub_of,
    quotas_of,
    read_refusal,
    settings_of,
)
from porphyra.server.errors import MOVED_MESSAGE, SubmitError
from porphyra.server.incidents import player_message, report
from porphyra.server.owners import OwnedElsewhere
from porphyra.server.security import origin_allowed

log = logging.getLogger("porphyra.server")

router = APIRouter()


@router.websocket("/ws/{game_id}")
async def websocket_endpoint(
    websocket: WebSocket,
    game_id: str,
    token: str | None = None,
    lang: str | None = None,
    choices: str | None = None,
) -> None:
    origins = settings_of(websocket.app).allowed_origins
    if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), origins):
        log.warning("websocket refused: foreign origin %r", websocket.headers.get("origin"))
        await websocket.close(code=4403)  # before accept: the handshake gets HTTP 403
        return
    client_lang = normalize_language(lang) or DEFAULT_LANGUAGE
    hub = hub_of(websocket.app)
    quotas = quotas_of(websocket.app)
    peer = websocket.client.host if websocket.client else "?"
    if game_id not in hub.runners and not quotas.allow_read(peer):
        # Opening a game that is not in memory replays its record: a read of a stored
        # game, counted as one (else opening and closing sockets across many games
        # would replay them all).
        await websocket.accept()
        await _refuse(websocket, translate_error(read_refusal(quotas), client_lang), 4429, "limit")
        return
    try:
        runner = await hub.get(game_id)
    except OwnedElsewhere as moved:
        if ROUTER_HEADER in websocket.headers:
            # A load balancer asks (deploy/haproxy.cfg): refuse the handshake with 503,
            # which it retries on another process, until it reaches the owner (whose
            # handshake's GAME_HEADER it then remembers).
            await websocket.send_denial_response(Response(status_code=503))
            return
        await websocket.accept()
        await _moved(websocket, moved, client_lang)
        return
    except Exception:  # e.g. the database is down
        error_id = report("game %s: could not open", game_id)
        await websocket.accept()
        await websocket.send_text(
            protocol.dumps(protocol.error(0, player_message(error_id), "unavailable"))
        )
        await websocket.close(code=1011)
        return
    # This process runs the game: the handshake says so (GAME_HEADER), for a load balancer
    # in front that learns where each game runs (deploy/haproxy.cfg).
    await websocket.accept(headers=None if runner is None else [game_header(game_id)])
    if runner is None:
        if game_id in hub.broken:
            await _refuse(
                websocket,
                translate_error(damaged_detail(hub.broken[game_id]), client_lang),
                4410,
                "damaged",
            )
        else:
            await _refuse(websocket, translate_error("no such game", client_lang), 4404)
        return
    seat: int | None = None
    if token:
        seat = runner.seat_of_token(token)
        if seat is None:
            await _refuse(
                websocket,
                translate_error("wrong seat token: this link does not open a seat", client_lang),
                4403,
            )
            return
    seat_key = None if seat is None else f"{game_id}/{seat}"
    refusal = quotas.open_connection(peer, seat_key)
    if refusal is not None:
        await _refuse(websocket, translate_error(refusal, client_lang), 4429, "limit")
        return
    client = Client(seat, lang=client_lang, compact=choices == "1")
    writer: asyncio.Task[None] | None = None
    # From here on the connection holds a slot (open_connection): every way out,
    # a failure included, goes through the finally that gives it back.
    try:
        await runner.load_chat()
        writer = asyncio.get_running_loop().create_task(_writer(websocket, client))
        async with runner.lock:  # a snapshot only ever shows a durably stored state
            runner.attach(client)
        if runner.released:  # released from memory meanwhile: use the reloaded runner
            runner.detach(client)
            try:
                again = await hub.get(game_id)
            except OwnedElsewhere as moved:  # and another server took it meanwhile
                client.move_to(moved.address, 0)  # (the writer sends it, then closes)
                return
            if again is None:
                client.send(protocol.error(0, translate_error("no such game", client_lang), "auth"))
                client.close_code = 4404
                return
            runner = again
            await runner.load_chat()
            async with runner.lock:
                runner.attach(client)
        if seat is not None and runner.alerts is not None:
            runner.alerts.opened(seat)  # (a turn alert answered: issue 32 §5)
        messages = quotas.connection_key()
        # Chat is rate-limited per seat, and per address for spectators (however many
        # sockets an address opens, they share one rate), and the table's spectators
        # together share one more (however many addresses they write from).
        chat_key = f"{game_id}/{seat}"

        def allow_chat() -> bool:
            if seat is None:
                return quotas.allow_spectator_chat(game_id, peer)
            return quotas.allow_chat(chat_key)

        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            if not quotas.allow_message(messages):
                client.send(
                    protocol.error(
                        runner.seq, client.error_text("too many messages: slow down"), "limit"
                    )
                )
                continue
            await _handle(
                runner,
                client,
                raw,
                allow_chat,
                lambda: quotas.allow_hint(peer),
            )
            if client.dropped:
                break
    except WebSocketDisconnect:
        pass
    except Exception:  # never a traceback to the player, never a slot kept
        error_id = report("game %s: a connection failed", game_id)
        client.send(protocol.error(0, client.error_text(player_message(error_id)), "internal"))
        client.close_code = 1011
    finally:
        quotas.close_connection(peer, seat_key)
        runner.detach(client)
        client.outbox.put_nowait(None)
        if writer is not None:
            try:
                await asyncio.wait_for(writer, timeout=2.0)
            except (TimeoutError, Exception):
                writer.cancel()


async def _refuse(websocket: WebSocket, message: str, code: int, kind: str = "auth") -> None:
    await websocket.send_text(protocol.dumps(protocol.error(0, message, kind)))
    await websocket.close(code=code)


async def _moved(websocket: WebSocket, moved: OwnedElsewhere, lang: str) -> None:
    """Tell a client that another server runs its game (error ``moved``, ``server``: where)
    and close with code 4307."""
    message = protocol.moved(0, translate_error(MOVED_MESSAGE, lang), moved.address)
    await websocket.send_text(protocol.dumps(message))
    await websocket.close(code=MOVED_CLOSE_CODE)


async def _writer(websocket: WebSocket, client: Client) -> None:
    """Send ``client``'s outbox in order; stop (and close) on ``None``."""
    try:
        while True:
            text = await client.outbox.get()
            if text is None:
                break
            await websocket.send_text(text)
    except Exception:  # the peer went away; the reader loop notices too
        return
    if websocket.client_state == WebSocketState.CONNECTED:
        code = client.close_code or (1008 if client.dropped else 1000)
        with contextlib.suppress(Exception):
            await websocket.close(code=code)


def _refused(client: Client, runner: Any, exc: SubmitError) -> None:
    """Answer ``client``'s refused message with the protocol's error (in its language).

    ``moved`` gets no answer here: another server took the game over, and
    :meth:`Hub.drop` (under way) tells every client of the game, this one too, where it
    went (the moved error with ``server``) and closes; this would be a second, incomplete
    one."""
    if exc.code != "moved":
        client.send(protocol.error(runner.seq, client.error_text(exc.message), exc.code))


async def _handle(
    runner: Any,
    client: Client,
    raw: str | bytes,
    allow_chat: Callable[[], bool] = lambda: True,
    allow_hint: Callable[[], bool] = lambda: True,
) -> None:
    """Answer one client message; every failure becomes an ``error`` to that client
    (``allow_chat()``: False when the writer is over the chat limit; ``allow_hint()``:
    False when the client's address is over the hint limit, then the hint is refused
    with code ``limit`` and no search starts)."""
    try:
        msg = protocol.parse_client_message(raw)
    except protocol.ProtocolError as exc:
        client.send(protocol.error(runner.seq, client.error_text(exc.message), "malformed"))
        return
    if msg.type == "ping":
        client.send({"type": "pong", "seq": runner.seq})
        return
    if msg.type == "snapshot":
        client.send(runner.view(client.seat, "snapshot", lang=client.lang, compact=client.compact))
        return
    if msg.type == "legal":
        client.send({"type": "legal", "seq": runner.seq, "legal": runner.legal_texts(client.seat)})
        return
    if msg.type == "chat":
        assert msg.action is not None
        if not allow_chat():
            message = client.error_text("too many chat lines: wait a moment")
            client.send(protocol.error(runner.seq, message, "limit"))
            return
        try:
            await runner.post_chat(client.seat, msg.action)
        except SubmitError as exc:
            _refused(client, runner, exc)
        return
    if client.seat is None:
        client.send(protocol.error(runner.seq, client.error_text("spectators cannot act"), "auth"))
        return
    try:
        if msg.type == "leave":
            await runner.leave(client.seat)
            return
        if msg.type == "return":
            await runner.give_back(client.seat)
            return
        assert msg.seq is not None
        if msg.type == "hint":
            if client.hinting:
                raise SubmitError("limit", "a hint is already being worked out")
            if not allow_hint():
                raise SubmitError("limit", "too many hints from your address: wait a minute")
            client.hinting = True
            try:
                client.send(await runner.hint(client.seat, msg.seq))
            finally:
                client.hinting = False
        elif msg.type == "undo":
            await runner.undo(client.seat, msg.seq)
        else:
            assert msg.action is not None
            await runner.submit(client.seat, msg.action, msg.seq)
    except SubmitError as exc:
        _refused(client, runner, exc)
    except Exception:  # never let one message take the server down
        error_id = report("game %s: unexpected error on a message", runner.id)
        client.send(protocol.error(runner.seq, player_message(error_id), "internal"))
