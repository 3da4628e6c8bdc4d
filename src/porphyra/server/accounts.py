"""The rules of accounts' passwords and sign-in attempts (issue 32 §1); user names are in
:mod:`porphyra.server.names`, sessions in :mod:`porphyra.server.sessions`, the stored rows
in :mod:`porphyra.server.accountstore`, the HTTP surface in
:mod:`porphyra.server.routes.accounts`.

- Passwords are stored as Argon2id hashes (``argon2-cffi``'s ``PasswordHasher`` with its
  defaults, RFC 9106's low-memory profile: 3 passes over 64 MiB).  Hashing runs off the
  event loop, at most :data:`HASHES_AT_ONCE` at a time (each takes 64 MiB), and a hash
  made with older parameters is renewed at the next sign-in.
- A sign-in for a name that has no account verifies a dummy hash, so that it takes as
  long as a wrong password for a real one, and gets the same answer.
- Sign-in attempts are limited per client address and per user name (its skeleton, also
  for names that have no account, so that the limit says nothing either), sign-ups per
  address (the ``limits`` library, moving windows in memory, as
  :mod:`porphyra.server.quotas`).
"""

from __future__ import annotations

import asyncio
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from limits import storage, strategies

from porphyra.core.messages import Message, msg
from porphyra.server.quotas import optional_limit

#: Fewest and most characters of a password (a long one costs nothing more to store; the
#: most bounds the work of hashing one).
MIN_PASSWORD = 8
MAX_PASSWORD = 256
#: Argon2 hashes computed at once (each takes 64 MiB and a core for tens of ms).
HASHES_AT_ONCE = 2


class PasswordRefused(ValueError):
    """A new password refused by :func:`check_password`; ``message`` says why."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


def check_password(password: str) -> None:
    """Check a new password's length (:data:`MIN_PASSWORD` to :data:`MAX_PASSWORD`
    characters; any characters).

    Raises:
        PasswordRefused: too short or too long (the message gives the limit, never the
            password).
    """
    if len(password) < MIN_PASSWORD:
        raise PasswordRefused(msg("a password needs at least {0} characters", MIN_PASSWORD))
    if len(password) > MAX_PASSWORD:
        raise PasswordRefused(msg("a password may have at most {0} characters", MAX_PASSWORD))


class Passwords:
    """Argon2id hashing off the event loop.

    Args:
        hasher: the ``PasswordHasher`` (default: argon2-cffi's defaults, Argon2id).
    """

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self._hasher = hasher or PasswordHasher()
        self._gate = asyncio.Semaphore(HASHES_AT_ONCE)
        #: Verified when a name has no account (same cost as a real verification); made
        #: at the first sign-in, so that building an app costs no hash.
        self._dummy: str | None = None

    async def hash(self, password: str) -> str:
        """The Argon2id hash of ``password`` (PHC string: ``$argon2id$v=19$...``)."""
        async with self._gate:
            return await asyncio.to_thread(self._hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> tuple[bool, str | None]:
        """Check ``password`` against ``stored`` (None: no such account; a dummy hash is
        verified instead, so both take as long).

        Returns:
            ``(ok, new_hash)``: whether it matches, and a fresh hash when it matched a
            hash made with other parameters (store it), else None.
        """
        async with self._gate:
            return await asyncio.to_thread(self._verify, stored, password)

    def _verify(self, stored: str | None, password: str) -> tuple[bool, str | None]:
        if self._dummy is None:
            self._dummy = self._hasher.hash(secrets.token_urlsafe(16))
        try:
            self._hasher.verify(stored or self._dummy, password)
        except (VerificationError, InvalidHashError):
            return False, None
        if stored is None:
            return False, None
        if self._hasher.check_needs_rehash(stored):
            return True, self._hasher.hash(password)
        return True, None


class SignInLimits:
    """Limits on sign-in attempts and sign-ups (``limits`` notation; None: no limit).

    Args:
        per_address: sign-in attempts per client address.
        per_name: sign-in attempts per user name (its skeleton).
        signups: sign-ups per client address.

    Raises:
        ValueError: a limit the ``limits`` notation does not parse
            (:func:`porphyra.server.quotas.check_limit`).
    """

    def __init__(self, per_address: str | None, per_name: str | None, signups: str | None):
        self._limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())
        self._address = optional_limit(per_address)
        self._name = optional_limit(per_name)
        self._signups = optional_limit(signups)

    def allow_signin(self, address: str, name_key: str) -> bool:
        """Count one sign-in attempt from ``address`` for ``name_key``; False if either is
        over its limit (the attempt is then not made)."""
        by_address = self._address is None or self._limiter.hit(self._address, "in", address)
        by_name = self._name is None or self._limiter.hit(self._name, "name", name_key)
        return by_address and by_name

    def allow_signup(self, address: str) -> bool:
        """Count one sign-up from ``address``; False if over the limit."""
        return self._signups is None or self._limiter.hit(self._signups, "up", address)
