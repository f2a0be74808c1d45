"""Passwords, session tokens, CSRF tokens and rate limits."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher()

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


def new_token() -> str:
    """A fresh random token (session id, CSRF token, join code)."""
    return secrets.token_urlsafe(32)


def token_hash(secret_key: str, token: str) -> str:
    """What the database keeps of a session token: a keyed hash, useless without the key."""
    return hmac.new(secret_key.encode(), token.encode(), hashlib.sha256).hexdigest()


def same_token(a: str, b: str) -> bool:
    """Constant-time comparison."""
    return hmac.compare_digest(a.encode(), b.encode())


class RateLimiter:
    """At most ``limit`` events per ``window`` seconds per key (sliding window, in memory)."""

    def __init__(self, limit: int, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self._events: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        """Record one event for ``key``; False if it is over the limit."""
        now = time.monotonic()
        with self._lock:
            events = self._events.setdefault(key, deque())
            while events and now - events[0] > self.window:
                events.popleft()
            if len(events) >= self.limit:
                return False
            events.append(now)
            if len(self._events) > 10_000:  # forget idle keys now and then
                for stale in [k for k, v in self._events.items() if not v or now - v[-1] > self.window]:
                    del self._events[stale]
            return True

    def retry_after(self, key: str) -> int:
        """Seconds until ``key`` may try again."""
        with self._lock:
            events = self._events.get(key)
            if not events:
                return 0
            return max(1, int(self.window - (time.monotonic() - events[0])) + 1)
