"""Passwords, session tokens and CSRF tokens (rate limits: :mod:`meadhall.server.ratelimit`).

Hashing a password takes tens of milliseconds of CPU by design: it runs in a small
pool of threads of its own (argon2 releases the GIL), never on the event loop, and
never in the pool that runs the database reads. A sign-in with an unknown name (or a
guest's name, which has no password) is checked against a dummy hash, so it costs
the same as a wrong password and does not tell which names exist.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher()
_HASHING_THREADS = 2  # at most this many hashes at once; more sign-ins wait their turn
_hashing = ThreadPoolExecutor(max_workers=_HASHING_THREADS, thread_name_prefix="meadhall-argon2")
_dummy: list[str] = []
_dummy_lock = threading.Lock()

SESSION_COOKIE = "meadhall_session"
CSRF_COOKIE = "meadhall_csrf"
CSRF_HEADER = "x-csrf-token"


def hash_password(password: str) -> str:
    """An argon2id hash of ``password``."""
    return _hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    """True if ``password`` matches the stored hash."""
    try:
        return _hasher.verify(password_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def dummy_hash() -> str:
    """A hash of a random password, made once: what an unknown name's password is checked against."""
    with _dummy_lock:
        if not _dummy:
            _dummy.append(_hasher.hash(secrets.token_urlsafe(32)))
        return _dummy[0]


def check_password(password_hash: str | None, password: str) -> bool:
    """True if ``password`` matches; with no hash (unknown name, guest) a dummy hash is checked, and False."""
    if password_hash is None:
        verify_password(dummy_hash(), password)
        return False
    return verify_password(password_hash, password)


async def hash_password_off_loop(password: str) -> str:
    """:func:`hash_password` in the hashing threads."""
    return await asyncio.get_running_loop().run_in_executor(_hashing, hash_password, password)


async def check_password_off_loop(password_hash: str | None, password: str) -> bool:
    """:func:`check_password` in the hashing threads."""
    return await asyncio.get_running_loop().run_in_executor(_hashing, check_password, password_hash, password)


def new_token() -> str:
    """A fresh random token (session id, CSRF token, join code)."""
    return secrets.token_urlsafe(32)


def token_hash(secret_key: str, token: str) -> str:
    """What the database keeps of a session token: a keyed hash, useless without the key."""
    return hmac.new(secret_key.encode(), token.encode(), hashlib.sha256).hexdigest()


def same_token(a: str, b: str) -> bool:
    """Constant-time comparison."""
    return hmac.compare_digest(a.encode(), b.encode())
