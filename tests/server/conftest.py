"""A real app on a real database (SQLite file; PostgreSQL too when the machine has it)."""

from __future__ import annotations

import contextlib
import email
import os
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from email.message import Message
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from meadhall.cli.bench_cluster import stop_process as stop_process  # the tests' servers stop as the bench's
from meadhall.server.app import create_app
from meadhall.server.settings import Settings

PG_ADMIN = os.environ.get("MEADHALL_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def postgres_available() -> bool:
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN.replace("+psycopg", ""), connect_timeout=2):
            return True
    except Exception:
        return False


PG = postgres_available()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.sqlite3'}"
        return
    if not PG:
        pytest.skip("PostgreSQL is not reachable at 127.0.0.1:5432 (set MEADHALL_TEST_PG); SQLite was tested")
    with fresh_pg_database("meadhall_test") as url:
        yield url


@contextlib.contextmanager
def fresh_pg_database(prefix: str) -> Iterator[str]:
    """The URL of a fresh PostgreSQL database of its own (named ``prefix_<random>``), dropped at the end."""
    import psycopg

    name = f"{prefix}_{secrets.token_hex(4)}"
    admin = PG_ADMIN.replace("+psycopg", "")
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield PG_ADMIN.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def make_settings(tmp_path: Path, database_url: str, **extra: Any) -> Settings:
    # Response windows pause briefly here: the tests play whole games (tests/server/test_pacing.py checks the pause).
    extra.setdefault("response_pause_min", 0.0)
    extra.setdefault("response_pause_max", 0.02)
    return Settings(
        data_dir=tmp_path / "data", database_url=database_url, log_format="json", log_level="warning", **extra
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RunningServer:
    """A real uvicorn server in a thread, on a free port."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.app = create_app(settings)
        self.port = free_port()
        # As `meadhall serve` runs it: forwarded headers are the app's business (trusted_proxies).
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_config=None,
            ws="auto",
            ws_per_message_deflate=False,
            proxy_headers=False,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> RunningServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[RunningServer]:
    settings = make_settings(tmp_path, database_url, login_rate=1000, cookie_secure="false")
    with RunningServer(settings) as running:
        yield running


class Player:
    """A browser-like client: its own cookies and CSRF token."""

    def __init__(self, server: RunningServer, name: str) -> None:
        self.client = httpx.Client(base_url=server.url, timeout=60)
        self.name = name
        self.csrf = ""

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Any:
        headers = {"X-CSRF-Token": self.csrf, **kwargs.pop("headers", {})}
        return self.client.post(path, json=body if body is not None else {}, headers=headers, **kwargs)

    def get(self, path: str) -> Any:
        return self.client.get(path)

    def register(self, password: str = "correct horse battery") -> Any:
        response = self.post("/api/auth/register", {"name": self.name, "password": password})
        assert response.status_code == 201, response.text
        self.csrf = response.json()["csrf"]
        return response.json()["user"]

    def guest(self) -> Any:
        response = self.post("/api/auth/guest", {"display_name": self.name})
        assert response.status_code == 201, response.text
        self.csrf = response.json()["csrf"]
        return response.json()["user"]


#: Seconds a response window waits before the table answers for a seat, at a paced server:
#: long enough for a test to take a move back or confirm it before the next seat's answer.
PACED_WINDOW = 3.0


def paced_settings(tmp_path: Path, database_url: str) -> Settings:
    """Settings of a server whose response windows wait :data:`PACED_WINDOW` seconds."""
    return make_settings(
        tmp_path,
        database_url,
        login_rate=1000,
        cookie_secure="false",
        response_pause_min=PACED_WINDOW,
        response_pause_max=PACED_WINDOW,
    )


@pytest.fixture
def paced(tmp_path: Path, database_url: str) -> Iterator[tuple[RunningServer, str]]:
    """A paced server (see :func:`paced_settings`) and its database's address."""
    with RunningServer(paced_settings(tmp_path, database_url)) as running:
        yield running, database_url


def two_seat_table(server: RunningServer, game: str = "toy", **settings: Any) -> tuple[str, dict[int, Player]]:
    """A started table of ``game``: ann made it and sits first, bob joined; ``settings`` go in the request."""
    ann, bob = Player(server, "ann"), Player(server, "bob")
    ann.register()
    bob.register()
    return start_table(ann, bob, game, **settings), {0: ann, 1: bob}


def start_table(ann: Any, bob: Any, game: str = "toy", options: dict[str, Any] | None = None, **settings: Any) -> str:
    """A table of ``game`` Ann makes (``settings`` in the request) and starts, Bob in seat 1: its id.

    ``ann`` and ``bob``: signed-in players of any of the tests' kinds (a ``post(path, body)``).
    """
    body = {"game": game, "options": options or {}, "seats": [{"kind": "me"}, {"kind": "open"}], **settings}
    made = ann.post("/api/tables", body)
    assert made.status_code == 201, made.text
    table_id = str(made.json()["id"])
    assert bob.post(f"/api/tables/{table_id}/join", {}).status_code == 200
    assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
    return table_id


def state_with_words(player: Player, table_id: str) -> dict[str, Any]:
    """The table's state as ``player``'s seat sees it, with the words for people."""
    found: dict[str, Any] = player.get(f"/api/tables/{table_id}/state?words=1").json()
    return found


class Inbox:
    """What the SMTP server received, message by message."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            self.messages.append(email.message_from_bytes(envelope.content))
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        with self.lock:
            return [m for m in self.messages if m["To"] == address]

    def wait(self, address: str, count: int = 1) -> list[Message]:
        """The messages to ``address`` once there are ``count`` of them (at most 30 s)."""
        deadline = time.monotonic() + 30
        while len(self.to(address)) < count:
            assert time.monotonic() < deadline, f"{count} e-mail(s) to {address} never came: {self.to(address)}"
            time.sleep(0.05)
        return self.to(address)


@contextlib.contextmanager
def smtp_inbox() -> Iterator[tuple[Inbox, int]]:
    """A real SMTP server (aiosmtpd) on a free port, and what it received."""
    from aiosmtpd.controller import Controller

    found = Inbox()
    port = free_port()
    controller = Controller(found, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield found, port
    finally:
        controller.stop()
