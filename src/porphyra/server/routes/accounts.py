"""Accounts and sessions (issue 32 §1, §6): the HTTP surface (JSON).

``POST   /api/accounts``             ``{"name", "password"}``: sign up and sign in (201, the
                                     session cookie) → the account.
``POST   /api/session``              ``{"name", "password"}``: sign in (a new session) → the
                                     account.
``DELETE /api/session``              sign out (204; the session ends).
``GET    /api/me``                   the signed-in account (401 when none).
``POST   /api/me/password``          ``{"password", "new_password"}``: change the password;
                                     every session of the account ends, this browser gets a
                                     new one.
``DELETE /api/me``                   ``{"password"}``: delete the account (204); its seats in
                                     stored games take the seat's neutral name.
``POST   /api/games/{id}/claim``     ``{"token"}``: the signed-in account holds the seat that
                                     the token (from the seat's link) opens.

Refusals are 4xx with a text in the asker's language: 400 (a name or password against
the rules), 401 (not signed in; a wrong name or password, the same answer whether the
name exists or not), 403 (a wrong seat token; a cross-site request), 409 (a name taken or
too like another, a seat held by another account), 413 (a body over 4 KiB), 429 (too
many attempts, with ``Retry-After``).  The rules are in :mod:`porphyra.server.names`,
:mod:`porphyra.server.accounts`, :mod:`porphyra.server.sessions` and
:mod:`porphyra.server.accountguard`; the rows in :mod:`porphyra.server.accountstore`.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request, Response

from porphyra.core.messages import msg
from porphyra.server.accounts import PasswordRefused, Passwords, SignInLimits, check_password
from porphyra.server.accountstore import Account, AccountStore, ClaimRefused, NameTaken
from porphyra.server.deps import READS, hub_of, settings_of
from porphyra.server.errors import RefusedRequest
from porphyra.server.names import NameRefused, skeleton, user_name
from porphyra.server.requests import (
    AccountOut,
    ClaimIn,
    ClaimOut,
    CredentialsIn,
    PasswordChangeIn,
    PasswordIn,
)
from porphyra.server.sessions import (
    clear_cookie,
    cookie_of,
    is_secure,
    new_token,
    set_cookie,
)

router = APIRouter(tags=["accounts"])

#: Seconds a client over a sign-in limit is told to wait (``Retry-After``).
RETRY_AFTER_S = 60
#: Longest name looked up at sign-in (a longer one has no account).
MAX_LOOKUP = 200

WRONG_CREDENTIALS = msg("wrong user name or password")
NOT_SIGNED_IN = msg("you are not signed in")


def _passwords(request: Request) -> Passwords:
    passwords: Passwords = request.app.state.passwords
    return passwords


def _limits(request: Request) -> SignInLimits:
    limits: SignInLimits = request.app.state.signin_limits
    return limits


def _store(request: Request) -> AccountStore:
    return AccountStore(hub_of(request.app).storage.engine)


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


def _out(account: Account) -> AccountOut:
    return AccountOut(id=account.id, name=account.name, created=account.created)


def _too_many() -> RefusedRequest:
    refusal = RefusedRequest(429, msg("too many attempts; wait a minute and try again"))
    refusal.headers = {"retry-after": str(RETRY_AFTER_S)}
    return refusal


async def _sign_in(request: Request, response: Response, account: Account) -> None:
    """Start a new session of ``account`` for this browser (ending the one it had)."""
    hub = hub_of(request.app)
    settings = settings_of(request.app)
    token = new_token()
    at = time.time()
    await hub.db(
        _store(request).start_session,
        account.id,
        token,
        at,
        at + settings.session_max_age_s,
        cookie_of(request),
    )
    secure = is_secure(request, settings.secure_cookies)
    set_cookie(response, token, settings.session_max_age_s, secure)


async def signed_in(request: Request) -> Account:
    """The account signed in with the request's session cookie.

    Raises:
        RefusedRequest(401): no cookie, or no live session for it.
    """
    token = cookie_of(request)
    if token is None:
        raise RefusedRequest(401, NOT_SIGNED_IN)
    account: Account | None = await hub_of(request.app).db(
        _store(request).session_account, token, time.time()
    )
    if account is None:
        raise RefusedRequest(401, NOT_SIGNED_IN)
    return account


async def _check_password(request: Request, account: Account, password: str) -> None:
    """Verify ``password`` of the signed-in ``account`` (limited as sign-ins are).

    Raises:
        RefusedRequest(429): over a sign-in limit.
        RefusedRequest(401): the password is wrong.
    """
    if not _limits(request).allow_signin(_address(request), skeleton(account.name)):
        raise _too_many()
    ok, _ = await _passwords(request).verify(account.password_hash, password)
    if not ok:
        raise RefusedRequest(401, msg("the password is wrong"))


@router.post("/api/accounts", status_code=201)
async def sign_up(body: CredentialsIn, request: Request, response: Response) -> AccountOut:
    """Create an account and sign it in (the session cookie comes with the answer)."""
    if not _limits(request).allow_signup(_address(request)):
        raise _too_many()
    try:
        name, key = user_name(body.name)
        check_password(body.password)
    except (NameRefused, PasswordRefused) as exc:
        raise RefusedRequest(400, exc.message) from None
    password_hash = await _passwords(request).hash(body.password)
    try:
        account: Account = await hub_of(request.app).db(
            _store(request).create, name, key, password_hash
        )
    except NameTaken:
        raise RefusedRequest(
            409, msg("this user name is taken or too like another one; choose another")
        ) from None
    await _sign_in(request, response, account)
    return _out(account)


@router.post("/api/session")
async def sign_in(body: CredentialsIn, request: Request, response: Response) -> AccountOut:
    """Sign in: a new session (a new cookie value) for the account named.  A wrong name
    and a wrong password get the same answer, after the same work."""
    key = skeleton(body.name[:MAX_LOOKUP])
    if not _limits(request).allow_signin(_address(request), key):
        raise _too_many()
    account: Account | None = None
    if len(body.name) <= MAX_LOOKUP:
        account = await hub_of(request.app).db(_store(request).by_key, key)
    ok, renewed = await _passwords(request).verify(
        None if account is None else account.password_hash, body.password
    )
    if account is None or not ok:
        raise RefusedRequest(401, WRONG_CREDENTIALS)
    if renewed is not None:
        await hub_of(request.app).db(_store(request).set_password, account.id, renewed)
    await _sign_in(request, response, account)
    return _out(account)


@router.delete("/api/session", status_code=204)
async def sign_out(request: Request, response: Response) -> None:
    """Sign out: the session ends (also answered 204 when there was none)."""
    token = cookie_of(request)
    if token is not None:
        await hub_of(request.app).db(_store(request).end_session, token)
    clear_cookie(response, is_secure(request, settings_of(request.app).secure_cookies))


@router.get("/api/me", responses={401: {"description": "not signed in"}})
async def me(request: Request, response: Response) -> AccountOut:
    """The signed-in account (never stored by a cache on the way: ``no-store``)."""
    response.headers["cache-control"] = "no-store"
    return _out(await signed_in(request))


@router.post("/api/me/password")
async def change_password(
    body: PasswordChangeIn, request: Request, response: Response
) -> AccountOut:
    """Change the password: every session of the account ends, and this browser gets a
    new one."""
    account = await signed_in(request)
    await _check_password(request, account, body.password)
    try:
        check_password(body.new_password)
    except PasswordRefused as exc:
        raise RefusedRequest(400, exc.message) from None
    new_hash = await _passwords(request).hash(body.new_password)
    hub = hub_of(request.app)
    store = _store(request)
    await hub.db(store.set_password, account.id, new_hash)
    await hub.db(store.end_sessions, account.id, time.time())
    await _sign_in(request, response, account)
    return _out(account)


@router.delete("/api/me", status_code=204)
async def delete_account(body: PasswordIn, request: Request, response: Response) -> None:
    """Delete the signed-in account (its password confirms it): its sessions end, its
    name is free again, and its seats in stored games take the seat's neutral name."""
    account = await signed_in(request)
    await _check_password(request, account, body.password)
    hub = hub_of(request.app)
    renamed: list[tuple[str, int, str]] = await hub.db(_store(request).delete, account.id)
    for game_id, seat, name in renamed:
        runner = hub.runners.get(game_id)
        if runner is not None and seat < len(runner.seats):
            runner.seats[seat].name = name
    clear_cookie(response, is_secure(request, settings_of(request.app).secure_cookies))


@router.post("/api/games/{game_id}/claim", dependencies=READS)
async def claim_seat(game_id: str, body: ClaimIn, request: Request) -> ClaimOut:
    """The signed-in account holds the seat of ``game_id`` that ``body.token`` opens (a
    guest who signs in from the seat's link)."""
    account = await signed_in(request)
    try:
        seat: int = await hub_of(request.app).db(
            _store(request).claim, game_id, body.token, account.id
        )
    except ClaimRefused as exc:
        refusals: dict[str, Any] = {
            "token": (403, msg("only a seat's own link can claim it")),
            "taken": (409, msg("another account holds this seat")),
            "twice": (409, msg("your account already holds another seat of this game")),
        }
        status, text = refusals[exc.reason]
        raise RefusedRequest(status, text) from None
    return ClaimOut(game=game_id, seat=seat, account=account.name)
