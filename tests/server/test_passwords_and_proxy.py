"""Sign-in: hashing stays off the event loop, unknown names cost a hash, and a trusted proxy.

Checked by behaviour, never by a stopwatch: a spy on the argon2 hasher sees which hash
an unknown name is checked against; a hasher held in the middle of its work shows that
the server still answers meanwhile; the login bucket and the Secure cookie follow the
forwarded headers only when the proxy sending them is trusted.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from meadhall.server import security
from tests.server.conftest import Player, RunningServer, make_settings

PASSWORD = "correct horse battery"


class Hasher:
    """Stands in for the server's argon2 hasher: calls ``before(method, args)``, then the real one."""

    def __init__(self, real: Any, before: Any) -> None:
        self.real = real
        self.before = before

    def hash(self, password: str) -> str:
        self.before("hash", (password,))
        return str(self.real.hash(password))

    def verify(self, password_hash: str, password: str) -> bool:
        self.before("verify", (password_hash, password))
        return bool(self.real.verify(password_hash, password))


def test_an_unknown_name_is_checked_against_a_dummy_hash(server: RunningServer, monkeypatch: Any) -> None:
    ann, cy = Player(server, "ann"), Player(server, "Cy")
    ann.register()
    guest_name = cy.guest()["name"]
    checked: list[str] = []

    def spy(method: str, args: tuple[str, ...]) -> None:
        if method == "verify":
            checked.append(args[0])

    monkeypatch.setattr(security, "_hasher", Hasher(security._hasher, spy))
    client = httpx.Client(base_url=server.url, timeout=60)
    for name in ("nobody-here", guest_name, "ann"):
        answer = client.post("/api/auth/login", json={"name": name, "password": "not the password"})
        assert answer.status_code == 401 and answer.json()["error"] == "bad-credentials"
    dummy = security.dummy_hash()
    # An unknown name and a guest (no password) cost one verification each, against the
    # dummy hash; a known name's wrong password is checked against its own hash.
    assert checked[:2] == [dummy, dummy]
    assert len(checked) == 3 and checked[2] != dummy and checked[2].startswith("$argon2")
    assert client.post("/api/auth/login", json={"name": "ann", "password": PASSWORD}).status_code == 200


@pytest.mark.parametrize("route", ["login", "register"])
def test_the_server_answers_while_a_password_is_hashed(server: RunningServer, monkeypatch: Any, route: str) -> None:
    Player(server, "ann").register()
    hashing, release = threading.Event(), threading.Event()
    held_method = "verify" if route == "login" else "hash"

    def hold(method: str, args: tuple[str, ...]) -> None:
        if method == held_method:
            hashing.set()
            release.wait(timeout=60)  # hang guard: the test releases it as soon as /healthz answered

    monkeypatch.setattr(security, "_hasher", Hasher(security._hasher, hold))
    body = {"name": "ann" if route == "login" else "dee", "password": PASSWORD}
    answers: list[httpx.Response] = []
    signing_in = threading.Thread(
        target=lambda: answers.append(httpx.post(f"{server.url}/api/auth/{route}", json=body, timeout=120))
    )
    signing_in.start()
    try:
        assert hashing.wait(timeout=60), "the password was never hashed"
        # The hash is in progress (held): the event loop must still answer. On the loop,
        # the hash would block it and this request could not be answered until release.
        health = httpx.get(f"{server.url}/healthz", timeout=20)
        assert health.status_code == 200
        assert not release.is_set() and not answers
    finally:
        release.set()
        signing_in.join(timeout=60)
    assert answers and answers[0].status_code in (200, 201), answers


def _proxied(tmp_path: Path, database_url: str, trusted: str) -> Any:
    return make_settings(tmp_path, database_url, login_rate=2, trusted_proxies=trusted)


def _attempt(server: RunningServer, forwarded_for: str, proto: str | None = None) -> httpx.Response:
    headers = {"Host": "meadhall.example", "X-Forwarded-For": forwarded_for}
    if proto:
        headers["X-Forwarded-Proto"] = proto
    return httpx.post(
        f"{server.url}/api/auth/login", json={"name": "ann", "password": "wrong"}, headers=headers, timeout=60
    )


def _guest_cookie(server: RunningServer, proto: str | None) -> str:
    headers = {"Host": "meadhall.example", "X-Forwarded-For": "198.51.100.9"}
    if proto:
        headers["X-Forwarded-Proto"] = proto
    answer = httpx.post(f"{server.url}/api/auth/guest", json={"display_name": "Dee"}, headers=headers, timeout=60)
    assert answer.status_code == 201, answer.text
    return answer.headers["set-cookie"]


def test_behind_a_trusted_proxy_each_visitor_has_its_own_bucket_and_secure_cookies(
    tmp_path: Path, database_url: str
) -> None:
    with RunningServer(_proxied(tmp_path, database_url, "127.0.0.1")) as server:
        assert [_attempt(server, "203.0.113.7").status_code for _ in range(3)] == [401, 401, 429]
        # Another visitor behind the same proxy is not locked out.
        assert _attempt(server, "203.0.113.8").status_code == 401
        # The proxy says the visitor came over https: the cookies are Secure.
        assert "secure" in _guest_cookie(server, "https").lower()
        assert "secure" not in _guest_cookie(server, "http").lower()


def test_forwarded_headers_from_anyone_else_are_not_believed(tmp_path: Path, database_url: str) -> None:
    with RunningServer(_proxied(tmp_path, database_url, "192.0.2.1")) as server:
        # A made-up X-Forwarded-Proto does not make the cookies Secure (nor does the Host:
        # the request came over plain http from 127.0.0.1, which is not the proxy).
        assert "secure" not in _guest_cookie(server, "https").lower()
        # Made-up addresses do not buy fresh buckets: every attempt counts against
        # 127.0.0.1, which the guest sign-in above used once already (of 2 a minute).
        assert [_attempt(server, address).status_code for address in ("203.0.113.7", "203.0.113.8")] == [401, 429]
