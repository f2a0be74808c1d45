"""``meadhall serve`` with no options, as ``make run`` starts it: the defaults must serve."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from meadhall.server.settings import load_settings
from tests.server.conftest import free_port


def test_options_left_out_take_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in [k for k in os.environ if k.startswith("MEADHALL_")]:
        monkeypatch.delenv(key)
    settings = load_settings(host=None, port=None, data_dir=None, database_url=None, bot_workers=None)
    assert settings.data_dir == Path("data")


def test_serve_with_no_data_dir_starts_and_keeps_its_data_in_data(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEADHALL_")}
    process = subprocess.Popen(
        [sys.executable, "-m", "meadhall.cli.main", "serve", "--port", str(port)],
        cwd=tmp_path, env={**env, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        ready = False
        while time.monotonic() < deadline and process.poll() is None:
            try:
                ready = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=0.5).status_code == 200
            except httpx.HTTPError:
                ready = False
            if ready:
                break
            time.sleep(0.1)
        if not ready:
            process.kill()
            raise AssertionError(f"meadhall serve did not start: {process.communicate()[1].decode()[-2000:]}")
        assert httpx.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 200
        assert (tmp_path / "data").is_dir() and any((tmp_path / "data").iterdir())
    finally:
        process.terminate()
        process.wait(timeout=30)
