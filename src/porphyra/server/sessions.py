"""Sessions of signed-in accounts (issue 32 §1): the cookie and its rules.

A session is a row of the database (:class:`~porphyra.server.accountstore.AccountStore`),
found by the SHA-256 of a random cookie value (256 bits, ``secrets``); the browser holds
the value in the cookie :data:`COOKIE`:

- ``HttpOnly`` (no script reads it), ``SameSite=Lax`` (no other site's form or script
  sends it with a POST), ``Path=/``, ``Max-Age`` the session's life;
- ``Secure`` when the server is reached over HTTPS: the setting ``secure_cookies`` (True,
  False, or None: the request's scheme, which is ``https`` behind a proxy named by
  ``--forwarded-allow-ips`` that says so);
- a new value at every sign-in (the one sent before, if any, is ended: no session
  fixation), every session of an account ended at a password change and a deletion,
  one ended at sign-out; an unknown or expired value is never adopted.

Cross-site requests are refused besides SameSite by the Origin check of
:mod:`porphyra.server.accountguard`.
"""

from __future__ import annotations

import secrets

from fastapi import Request, Response

#: The session cookie's name.
COOKIE = "porphyra_session"
#: Longest accepted cookie value (a real one is 43 characters).
MAX_COOKIE = 128


def new_token() -> str:
    """A fresh session cookie value: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(32)


def cookie_of(request: Request) -> str | None:
    """The session cookie value the request carries, or None (absent, or not the shape
    of one)."""
    value = request.cookies.get(COOKIE)
    if not value or len(value) > MAX_COOKIE:
        return None
    return value


def is_secure(request: Request, secure: bool | None) -> bool:
    """Whether the cookie gets ``Secure``: ``secure`` if set, else whether the request
    came over HTTPS."""
    return request.url.scheme == "https" if secure is None else secure


def set_cookie(response: Response, token: str, max_age_s: int, secure: bool) -> None:
    """Give the browser the session cookie ``token`` (see the module docstring)."""
    response.set_cookie(
        COOKIE,
        token,
        max_age=max_age_s,
        path="/",
        httponly=True,
        samesite="lax",
        secure=secure,
    )


def clear_cookie(response: Response, secure: bool) -> None:
    """Tell the browser to drop the session cookie."""
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=secure)
