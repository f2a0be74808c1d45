"""What ``meadhall serve`` (``make run``) shows: at a terminal the address line first and plain
text after it; for a service (standard error not a terminal) JSON log lines."""

from __future__ import annotations

import io
import json
import logging
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from meadhall.server import logs
from meadhall.server.settings import Settings
from tests.server.conftest import free_port

HANG_GUARD = 120  # seconds: a busy machine may start the server slowly, but it must start


def _environment(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("MEADHALL_")}
    return {**env, "MEADHALL_COOKIE_SECURE": "false", **extra}


def _serve(port: int, data: Path) -> list[str]:
    return [sys.executable, "-m", "meadhall.cli.main", "serve", "--port", str(port), "--data-dir", str(data)]


def _wait_healthy(port: int, process: subprocess.Popen[Any]) -> None:
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        assert process.poll() is None, "the server exited"
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.05)
    raise AssertionError("the server did not answer")


def _act(port: int) -> None:
    """One logged API change: a guest signs in."""
    answer = httpx.post(f"http://127.0.0.1:{port}/api/auth/guest", json={"display_name": "Ann"}, timeout=30)
    assert answer.status_code == 201, answer.text


@pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX")
def test_at_a_terminal_the_address_comes_first_then_plain_lines(tmp_path: Path) -> None:
    port = free_port()
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        _serve(port, tmp_path / "data"), env=_environment(),
        stdin=subprocess.DEVNULL, stdout=follower, stderr=follower,
    )  # fmt: skip
    os.close(follower)
    screen = b""
    try:
        _wait_healthy(port, process)
        _act(port)
        deadline = time.monotonic() + HANG_GUARD
        while b"request" not in screen and time.monotonic() < deadline:
            if select.select([leader], [], [], 0.5)[0]:
                screen += os.read(leader, 65536)
    finally:
        process.terminate()
        process.wait(timeout=60)
        while select.select([leader], [], [], 0.2)[0]:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed with the server
                break
            if not chunk:
                break
            screen += chunk
        os.close(leader)
    lines = [line for line in screen.decode().replace("\r", "").splitlines() if line.strip()]
    assert lines[0] == f"meadhall is ready: open http://127.0.0.1:{port}/ (Ctrl-C stops)", lines
    assert not any(line.lstrip().startswith("{") for line in lines), lines  # no JSON for people
    (request,) = [line for line in lines if " request " in line]
    assert "method=POST path=/api/auth/guest status=201" in request


def test_for_a_service_the_logs_are_json_lines(tmp_path: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        _serve(port, tmp_path / "data"), env=_environment(),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        _wait_healthy(port, process)
        _act(port)
    finally:
        process.terminate()
        stdout, stderr = process.communicate(timeout=60)
    assert stdout.splitlines()[0] == f"meadhall is ready: open http://127.0.0.1:{port}/ (Ctrl-C stops)"
    records = [json.loads(line) for line in stderr.splitlines() if line.strip()]  # every line is JSON
    messages = [record["message"] for record in records]
    assert "meadhall is ready" in messages and "request" in messages
    assert any(record["logger"].startswith("alembic") for record in records)  # the migrations, for the log


def test_the_format_follows_the_setting_and_the_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    def settings(**values: Any) -> Settings:
        return Settings(**values)

    assert settings().log_format == "auto"
    assert not settings().json_logs(Terminal()) and settings().json_logs(io.StringIO())
    assert settings(log_format="json").json_logs(Terminal())
    assert not settings(log_format="TEXT").json_logs(io.StringIO())
    with pytest.raises(ValueError, match="log_format is auto, json or text"):
        settings(log_format="xml")


def test_plain_lines_keep_the_context_and_the_level() -> None:
    record = logging.LogRecord("meadhall.server", logging.WARNING, __file__, 1, "slow commit", None, None)
    record.ctx_ms = 12.5
    line = logs.TextFormatter().format(record)
    assert line.endswith(" warning: slow commit ms=12.5") and line[2] == ":" and line[5] == ":"
