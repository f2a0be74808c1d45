"""Limits on table WebSockets: messages per socket, sockets per address.

A socket may send at most ``ws_message_rate`` messages (a ``limits`` rate string such
as ``"20/second;300/minute"``; the ``limits`` library keeps the windows in memory); the
socket that goes over is closed with code :data:`TOO_MANY` and a reason that says so.
An address may hold at most ``ws_per_address`` table sockets at once; one more is
refused with HTTP 429 before the handshake completes. With ``redis_url`` set that count
is every server's (:attr:`SocketLimits.shared`, :mod:`meadhall.server.presence`).
"""

from __future__ import annotations

import itertools
import threading
from typing import TYPE_CHECKING

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter

if TYPE_CHECKING:
    from meadhall.server.presence import SharedPresence

#: The close code of a socket that sent more messages than allowed (4000-4999 are the
#: application's; 4429 echoes HTTP 429 Too Many Requests).
TOO_MANY = 4429


class SocketLimits:
    """The WebSocket limits of one server process."""

    def __init__(self, message_rate: str, per_address: int) -> None:
        self.message_rate = message_rate
        self.items: list[RateLimitItem] = parse_many(message_rate)
        self.per_address = per_address
        self._limiter = SlidingWindowCounterRateLimiter(MemoryStorage())
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()
        self._ids = itertools.count()
        #: Set with ``redis_url``: the sockets per address are counted across the servers there.
        self.shared: SharedPresence | None = None

    async def open(self, address: str) -> bool:
        """Count one more socket for ``address``; False (and nothing counted) if it holds its limit already."""
        if self.shared is not None:
            return await self.shared.admit(address, self.per_address)
        with self._lock:
            held = self._open.get(address, 0)
            if held >= self.per_address:
                return False
            self._open[address] = held + 1
            return True

    async def close(self, address: str) -> None:
        """A socket of ``address`` has closed."""
        if self.shared is not None:
            await self.shared.release(address)
            return
        with self._lock:
            held = self._open.get(address, 0) - 1
            if held > 0:
                self._open[address] = held
            else:
                self._open.pop(address, None)

    def socket_key(self) -> str:
        """A key for one socket's message windows."""
        return f"ws-{next(self._ids)}"

    def message(self, key: str) -> bool:
        """Count one message of the socket ``key``; False once it is over the rate."""
        return all(self._limiter.hit(item, "ws-messages", key) for item in self.items)

    def forget(self, key: str) -> None:
        """Drop a closed socket's windows."""
        for item in self.items:
            self._limiter.clear(item, "ws-messages", key)

    def refusal(self) -> str:
        """Why a socket was closed, for the close frame's reason (at most 123 bytes)."""
        return f"too many messages: at most {self.message_rate.replace(';', ' and ')}"[:123]
